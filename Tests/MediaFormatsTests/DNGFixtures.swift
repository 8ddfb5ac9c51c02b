import CaptureCore
import Foundation
@testable import MediaFormats

/// A synthetic RGGB 14-bit frame: a grey gradient with red, green, blue and yellow patches,
/// rendered through a plausible camera (cameraToSRGB, neutral) so colours survive a real developer.
enum DNGFixtures {
    static let cameraToSRGB = Matrix3([[1.62, -0.42, -0.20], [-0.28, 1.48, -0.20], [0.02, -0.52, 1.50]])
    static let neutral = SIMD3<Double>(0.48, 1, 0.66)
    /// Linear sRGB of the patches, left to right.
    static let patches: [(name: String, rgb: SIMD3<Double>)] = [
        ("red", SIMD3(0.60, 0.05, 0.04)), ("green", SIMD3(0.06, 0.45, 0.06)),
        ("blue", SIMD3(0.05, 0.08, 0.60)), ("yellow", SIMD3(0.55, 0.50, 0.05)),
    ]

    /// Patch i covers the middle three quarters of the i-th quarter of the columns, and the middle third of the rows.
    static func patchRect(_ i: Int, width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
        let pw = width / 4, margin = pw / 8
        return (i * pw + margin ..< (i + 1) * pw - margin, height / 3 ..< 2 * height / 3)
    }

    static func raw(width: Int = 256, height: Int = 192, cfa: CFAPattern = .rggb) -> RawImage {
        let black: Float = 528, white = 16383
        let toCamera = cameraToSRGB.inverse!
        var bayer = Raster<UInt16>(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let ramp = 0.02 + 0.5 * Double(x) / Double(width)
                var scene = SIMD3<Double>(repeating: ramp)
                for (i, patch) in patches.enumerated() {
                    let r = patchRect(i, width: width, height: height)
                    if r.x.contains(x), r.y.contains(y) { scene = patch.rgb }
                }
                let camera = toCamera * scene * neutral
                let c = cfa.color(x: x, y: y)
                let code = Double(black) + max(0, camera[c]) * (Double(white) - Double(black)) + Double((x * 7 + y * 13) % 5)
                bayer[x, y] = UInt16(min(Double(white), code.rounded()))
            }
        }
        return RawImage(bayer: bayer, cfa: cfa, bitDepth: 14, blackLevel: [528, 528, 528, 528], whiteLevel: white,
                        asShotNeutral: neutral, cameraToSRGB: cameraToSRGB,
                        noiseProfile: [(2.0e-5, 1.0e-7), (1.5e-5, 1.0e-7), (2.2e-5, 1.0e-7)],
                        exposure: ExposureRecord(duration: 1.0 / 120, iso: 200))
    }

    static func exif() -> ExifMetadata {
        var exif = ExifMetadata()
        exif.exposureTime = 1.0 / 120
        exif.fNumber = 1.8
        exif.iso = 200
        exif.focalLength = 3.99
        exif.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000.25)
        exif.timeZoneOffsetSeconds = 3600
        exif.lensModel = "Simulated back camera 3.99mm f/1.8"
        return exif
    }

    static func dng(_ raw: RawImage = raw(), preview: Raster<UInt8>? = nil) throws -> Data {
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Simulated iPhone", exif: exif())
        return try DNGWriter.write(raw, metadata: metadata, preview: preview)
    }
}
