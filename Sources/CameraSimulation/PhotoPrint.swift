import CaptureCore
import Foundation

/// A photograph printed on matte paper and hung in the simulated room: natural-image content
/// (textures, edges and colours with real statistics) among the scene's synthetic surfaces.
///
/// The print's reflectance is the photograph's linear sRGB value scaled between the paper's black
/// (3 %) and white (85 %), sampled bilinearly; outside 0…1 it is the paper's white.
struct PhotoPrint: Sendable {
    let width: Int
    let height: Int
    /// Linear reflectance, RGB interleaved, row 0 at the top.
    private let reflectance: [Float]

    static let paperBlack: Float = 0.03, paperWhite: Float = 0.85

    /// `base64sRGB`: width × height × 3 sRGB-encoded bytes. Data that does not decode to that size
    /// gives a blank (paper-white) print rather than a trap.
    init(width: Int, height: Int, base64sRGB: String) {
        self.width = max(1, width)
        self.height = max(1, height)
        let count = self.width * self.height * 3
        guard let bytes = Data(base64Encoded: base64sRGB), bytes.count == count else {
            reflectance = [Float](repeating: PhotoPrint.paperWhite, count: count)
            return
        }
        let table = (0..<256).map { v in
            PhotoPrint.paperBlack + (PhotoPrint.paperWhite - PhotoPrint.paperBlack) * SRGBTransfer.decode(Float(v) / 255)
        }
        reflectance = bytes.map { table[Int($0)] }
    }

    /// Reflectance at (u, v) ∈ [0, 1]² (u right, v down), bilinear between texel centres.
    func sample(u: Double, v: Double) -> SIMD3<Double> {
        guard u >= 0, u <= 1, v >= 0, v <= 1 else { return SIMD3(repeating: Double(PhotoPrint.paperWhite)) }
        let x = min(max(u * Double(width) - 0.5, 0), Double(width - 1))
        let y = min(max(v * Double(height) - 0.5, 0), Double(height - 1))
        let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        func texel(_ x: Int, _ y: Int) -> SIMD3<Double> {
            let i = (y * width + x) * 3
            return SIMD3(Double(reflectance[i]), Double(reflectance[i + 1]), Double(reflectance[i + 2]))
        }
        let top = texel(x0, y0) * (1 - fx) + texel(x1, y0) * fx
        let bottom = texel(x0, y1) * (1 - fx) + texel(x1, y1) * fx
        return top * (1 - fy) + bottom * fy
    }
}
