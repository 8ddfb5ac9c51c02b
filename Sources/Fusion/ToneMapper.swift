import CaptureCore
import Foundation

/// Tone mapping of scene-linear radiance to an 8-bit sRGB rendition: auto-exposure that puts the
/// log-average luminance at `key` (middle grey 0.18), then Reinhard's global operator with a white
/// point (Reinhard et al. 2002, eq. 4) on luminance, colour ratios kept, and the sRGB curve.
///
/// The white point is the `whitePercentile` of the exposed luminance (at least 1, so low-contrast
/// scenes pass through unchanged after exposure); only the brightest 0.5 % of pixels clip by default.
public struct ToneMapper: Sendable {
    /// Target for the log-average luminance after exposure.
    public var key: Double
    /// Fraction of pixels, by luminance, that stay below white.
    public var whitePercentile: Double

    public init(key: Double = 0.18, whitePercentile: Double = 0.995) {
        self.key = key
        self.whitePercentile = whitePercentile
    }

    /// An 8-bit sRGB rendition of linear RGB radiance (3 channels out for ≥ 3 in, else 1 grey channel).
    /// Negative and non-finite values count as black.
    public func render(_ hdr: Raster<Float>) -> Raster<UInt8> {
        let w = hdr.width, h = hdr.height, ch = hdr.channels, count = w * h
        let outChannels = ch >= 3 ? 3 : 1
        var out = Raster<UInt8>(width: w, height: h, channels: outChannels)
        guard count > 0 else { return out }
        @inline(__always) func clean(_ v: Float) -> Float { v.isFinite ? max(v, 0) : 0 }
        @inline(__always) func luminance(_ p: UnsafePointer<Float>) -> Float {
            ch >= 3 ? (LumaWeights.rec709 * SIMD3(clean(p[0]), clean(p[1]), clean(p[2]))).sum() : clean(p[0])
        }
        let bandHeight = 64, bands = (h + bandHeight - 1) / bandHeight
        var logSums = [Double](repeating: 0, count: bands)
        hdr.storage.withUnsafeBufferPointer { src in
            let s = src.baseAddress!
            logSums.withUnsafeMutableBufferPointer { sums in
                let sumsBase = sums.baseAddress!
                Parallel.forEachBandIndexed(height: h, bandHeight: bandHeight) { band, rows in
                    var sum = 0.0
                    for i in (rows.lowerBound * w)..<(rows.upperBound * w) { sum += Double(logf(1e-6 + luminance(s + i * ch))) }
                    sumsBase[band] = sum
                }
            }
        }
        let logAverage = exp(logSums.reduce(0, +) / Double(count))
        let scale = Float(key / max(logAverage, 1e-9))

        // White point from a subsample of at most ~64 K pixels.
        let step = max(1, count / 65_536)
        let samples = hdr.storage.withUnsafeBufferPointer { src in
            stride(from: 0, to: count, by: step).map { luminance(src.baseAddress! + $0 * ch) * scale }.sorted()
        }
        let index = min(samples.count - 1, max(0, Int(Double(samples.count - 1) * whitePercentile)))
        let white = max(samples[index], 1)
        let inverseWhite2 = 1 / (white * white)

        // 16-bit linear → 8-bit sRGB table.
        let encode: [UInt8] = (0...65_535).map { UInt8((SRGBTransfer.encode(Float($0) / 65_535) * 255).rounded()) }
        hdr.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                encode.withUnsafeBufferPointer { table in
                    let s = src.baseAddress!, d = dst.baseAddress!, t = table.baseAddress!
                    Parallel.forEachBand(height: h, bandHeight: bandHeight) { rows in
                        for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
                            let p = s + i * ch
                            let l = luminance(p) * scale
                            let mapped = l * (1 + l * inverseWhite2) / (1 + l)
                            let ratio = l > 0 ? mapped / l * scale : 0
                            for c in 0..<outChannels {
                                let v = min(max(clean(p[c]) * ratio, 0), 1)
                                d[i * outChannels + c] = t[Int(v * 65_535 + 0.5)]
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
