/// Cached scene view at one size: linear sRGB radiance (cd/m²), flash luminance per candela and z-depth (m).
final class RadianceView: Sendable {
    let width: Int
    let height: Int
    let radiance: [Float]
    let flashLuminance: [Float]
    let depth: [Float]

    init(width: Int, height: Int, radiance: [Float], flashLuminance: [Float], depth: [Float]) {
        self.width = width
        self.height = height
        self.radiance = radiance
        self.flashLuminance = flashLuminance
        self.depth = depth
    }
}
