import CaptureCore
import Foundation
import OpenCaptureTestSupport
@testable import MediaFormats

/// Deterministic, smooth-but-colourful test images.
enum TestImages {
    static func colourful(width: Int, height: Int, channels: Int = 3) -> Raster<UInt8> {
        var r = Raster<UInt8>(width: width, height: height, channels: channels)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(max(1, width - 1)), v = Double(y) / Double(max(1, height - 1))
                let rgb = [255 * u, 255 * v, 127.5 + 127.5 * sin(6 * u + 4 * v)]
                for c in 0..<channels {
                    r[x, y, c] = c < 3 ? UInt8(rgb[c].rounded()) : UInt8(255 - (x % 256))
                }
                if channels == 1 { r[x, y, 0] = UInt8(((rgb[0] + rgb[1]) / 2).rounded()) }
            }
        }
        return r
    }

    /// PSNR in dB between two rasters of the same shape, over the first `channels` channels.
    static func psnr(_ a: Raster<UInt8>, _ b: Raster<UInt8>) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        let channels = min(a.channels, b.channels)
        var se = 0.0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for c in 0..<channels {
                    let d = Double(a[x, y, c]) - Double(b[x, y, c])
                    se += d * d
                }
            }
        }
        let mse = se / Double(a.width * a.height * channels)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

/// `exiftool`'s tags for an encoded file, read with the shared `ExternalTool.exiftool`; tests that
/// use it are skipped with `.enabled(if: ExternalTool.exiftool.isInstalled, …)`.
enum ExifTool {
    /// `exiftool -j -G1 -a -warning -validate -all:all` on `data` written to a temp file (plus
    /// `-n` for numeric values); the one JSON object, with values rendered as strings.
    static func tags(of data: Data, numeric: Bool = false) throws -> [String: String] {
        let arguments = ["-j", "-G1", "-a", "-warning", "-validate", "-all:all"] + (numeric ? ["-n"] : [])
        let output = try ExternalTool.exiftool.run(arguments, file: data, fileExtension: "jpg").standardOutput
        let json = try JSONSerialization.jsonObject(with: output) as? [[String: Any]]
        var result: [String: String] = [:]
        for (k, v) in json?.first ?? [:] { result[k] = "\(v)" }
        return result
    }
}

/// The repository's own test fixtures. Files outside the repository (`../shared`) are reached only
/// through `SharedData.file(_:)` from OpenCaptureTestSupport.
enum RepositoryPaths {
    /// Tests/Fixtures/MediaFormats: files committed for regression tests (fuzz findings among them).
    static let fixtures = SharedData.repositoryRoot.appendingPathComponent("Tests/Fixtures/MediaFormats", isDirectory: true)
}
