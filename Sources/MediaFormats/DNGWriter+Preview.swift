import CaptureCore
import Foundation

extension DNGWriter {
    /// The preview at most `maxPreviewDimension` on its long side: every k-th 2×2 block averaged.
    static func downscaled(_ image: Raster<UInt8>) throws -> Raster<UInt8> {
        guard image.channels == 3, image.width > 0, image.height > 0 else {
            throw MediaFormatError.unsupported("DNG preview needs 8-bit RGB, got \(image.channels) channels")
        }
        let k = (max(image.width, image.height) + maxPreviewDimension - 1) / maxPreviewDimension
        guard k > 1 else { return image }
        let w = image.width / k, h = image.height / k
        var out = [UInt8](repeating: 0, count: w * h * 3)
        image.storage.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let stride = image.rowStride
                for y in 0..<h {
                    let row = y * k * stride
                    for x in 0..<w {
                        let p = row + x * k * 3
                        for c in 0..<3 {
                            let sum = Int(src[p + c]) + Int(src[p + 3 + c]) + Int(src[p + stride + c]) + Int(src[p + stride + 3 + c])
                            dst[(y * w + x) * 3 + c] = UInt8((sum + 2) / 4)
                        }
                    }
                }
            }
        }
        return Raster(width: w, height: h, channels: 3, storage: out)
    }

    /// A small sRGB rendering of the mosaic (one pixel per sampled 2×2 CFA block, white-balanced with
    /// the as-shot neutral, `cameraToSRGB`, sRGB curve), at most 256 pixels on its long side.
    static func generatedPreview(_ raw: RawImage) -> Raster<UInt8> {
        let step = 2 * max(1, (max(raw.width, raw.height) + 511) / 512)
        let w = max(1, raw.width / step), h = max(1, raw.height / step)
        let black = raw.blackLevel.count == 4 ? raw.blackLevel.map(Double.init) : Array(repeating: Double(raw.blackLevel[0]), count: 4)
        let colors = raw.cfa.colors
        let neutral = [raw.asShotNeutral.x, raw.asShotNeutral.y, raw.asShotNeutral.z]
        let m = raw.cameraToSRGB
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                var rgb = SIMD3<Double>(0, 0, 0), count = SIMD3<Double>(0, 0, 0)
                for i in 0..<4 {
                    let v = Double(raw.bayer[x * step + (i & 1), y * step + (i >> 1)])
                    let c = colors[i]
                    let signal = max(0, v - black[i]) / max(1, Double(raw.whiteLevel) - black[i]) / neutral[c]
                    rgb[c] += signal
                    count[c] += 1
                }
                // Brightened by the frame's baseline exposure, as a developer renders it (clipped, not rolled off).
                let srgb = m * (rgb / count) * pow(2, raw.baselineExposure)
                for c in 0..<3 {
                    let l = min(1, max(0, srgb[c]))
                    let e = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
                    out[(y * w + x) * 3 + c] = UInt8((e * 255).rounded())
                }
            }
        }
        return Raster(width: w, height: h, channels: 3, storage: out)
    }
}
