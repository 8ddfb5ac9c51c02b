import CaptureCore
import Foundation

/// Tone mapping of scene-linear radiance to an 8-bit sRGB rendition: auto-exposure that puts the
/// log-average luminance at `key` (middle grey 0.18); with `tonesLocally`, regions far brighter than their
/// surroundings (a window's view from a room) brought down by the ISP's local tone map (a bilateral grid: each
/// region's base is compressed, its detail kept); then Reinhard's global operator with a white point
/// (Reinhard et al. 2002, eq. 4) on each pixel's largest channel (max-RGB, as HDR10+ tone mapping does: colour
/// ratios kept, so a saturated sky is not pushed past white in its strongest channel), and the sRGB curve.
///
/// The white point is 1.25 × the `whitePercentile` of the exposed (and locally mapped) largest channel, at least 1, so
/// low-contrast scenes pass through unchanged after exposure; the brightest 0.5 % of pixels come within a few percent
/// of white and fewer reach it.
public struct ToneMapper: Sendable {
    /// Target for the log-average luminance after exposure.
    public var key: Double
    /// Percentile of the pixels' largest channel (after exposure and the local tone map) that sets the white point
    /// (1.25 × it, at least 1).
    public var whitePercentile: Double
    /// Whether regions far above their surroundings are compressed locally before the global curve (3-channel input
    /// only; others get the global curve alone).
    public var tonesLocally: Bool

    public init(key: Double = 0.18, whitePercentile: Double = 0.995, tonesLocally: Bool = true) {
        self.key = key
        self.whitePercentile = whitePercentile
        self.tonesLocally = tonesLocally
    }

    /// An 8-bit sRGB rendition of linear RGB radiance (3 channels out for ≥ 3 in, else 1 grey channel).
    /// Negative and non-finite values count as black. `saturation`: the radiance from which the merge had only
    /// clipped values (`HDRMerge.clipLevel`); regions mostly at or above it are not brought down by the local tone
    /// map, and a pixel with a channel at or above it is white, so a sky blown in every frame stays white instead of
    /// turning grey (not finite or not above 0: nothing counts as clipped). `shading`: the vignetting correction the
    /// radiance went through after clipping (`ImageSignalProcessor.linearClipLevel`), which raises that level by its
    /// gain at each pixel.
    public func render(_ hdr: Raster<Float>, saturation: Float = .infinity, shading: LensCorrection? = nil) -> Raster<UInt8> {
        let saturation = saturation > 0 && saturation.isFinite ? saturation : .infinity
        let shading = shading.flatMap { $0.hasVignetting ? $0 : nil }
        let w = hdr.width, h = hdr.height, ch = hdr.channels, count = w * h
        let outChannels = ch >= 3 ? 3 : 1
        var out = Raster<UInt8>(width: w, height: h, channels: outChannels)
        guard count > 0 else { return out }
        @inline(__always) func clean(_ v: Float) -> Float { v.isFinite ? max(v, 0) : 0 }
        @inline(__always) func luminance(_ p: UnsafePointer<Float>, _ ch: Int) -> Float {
            ch >= 3 ? (LumaWeights.rec709 * SIMD3(clean(p[0]), clean(p[1]), clean(p[2]))).sum() : clean(p[0])
        }
        // The curve's input: the largest channel (of clean, exposed values), so no channel passes white and hue and
        // saturation are kept where luminance would push a saturated colour's strongest channel past it.
        @inline(__always) func norm(_ p: UnsafePointer<Float>, _ ch: Int) -> Float { ch >= 3 ? max(p[0], p[1], p[2]) : p[0] }
        let bandHeight = 64, bands = (h + bandHeight - 1) / bandHeight
        var logSums = [Double](repeating: 0, count: bands)
        hdr.storage.withUnsafeBufferPointer { src in
            let s = src.baseAddress!
            logSums.withUnsafeMutableBufferPointer { sums in
                let sumsBase = sums.baseAddress!
                Parallel.forEachBandIndexed(height: h, bandHeight: bandHeight) { band, rows in
                    var sum = 0.0
                    for i in (rows.lowerBound * w)..<(rows.upperBound * w) { sum += Double(logf(1e-6 + luminance(s + i * ch, ch))) }
                    sumsBase[band] = sum
                }
            }
        }
        let logAverage = exp(logSums.reduce(0, +) / Double(count))
        let scale = Float(key / max(logAverage, 1e-9))
        // Radiance has no fixed white: any headroom qualifies, and the map decides whether anything needs it.
        let local = tonesLocally && ch == 3
            ? LocalToneMap(linear: hdr, exposureGain: Double(scale), headroom: .infinity, saturation: saturation, shading: shading) : nil

        /// Row `y` exposed (clean, × scale) into `row` (`outChannels` interleaved) and locally mapped.
        func exposedRow(_ y: Int, _ s: UnsafePointer<Float>, into row: UnsafeMutablePointer<Float>) {
            let p = s + y * w * ch
            for x in 0..<w {
                for c in 0..<outChannels { row[x * outChannels + c] = clean(p[x * ch + c]) * scale }
            }
            local?.apply(r: row, g: row + 1, b: row + 2, stride: 3, row: y, width: w)
        }

        // White point from a subsample of about 64 K pixels on up to 256 rows.
        let rowStep = max(1, h / 256), sampledRows = (h + rowStep - 1) / rowStep
        let columnStep = max(1, w * sampledRows / 65_536)
        var samples: [Float] = []
        samples.reserveCapacity(sampledRows * (w / columnStep + 1))
        hdr.storage.withUnsafeBufferPointer { src in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: w * outChannels) { row in
                let r = row.baseAddress!
                for y in stride(from: 0, to: h, by: rowStep) {
                    exposedRow(y, src.baseAddress!, into: r)
                    for x in stride(from: 0, to: w, by: columnStep) { samples.append(norm(r + x * outChannels, outChannels)) }
                }
            }
        }
        samples.sort()
        let index = min(samples.count - 1, max(0, Int(Double(samples.count - 1) * whitePercentile)))
        // A quarter above that percentile, so the pixels just below it roll off instead of meeting white together.
        let white = max(1.25 * samples[index], 1)
        let inverseWhite2 = 1 / (white * white)

        // 16-bit linear → 8-bit sRGB table.
        let encode: [UInt8] = (0...65_535).map { UInt8((SRGBTransfer.encode(Float($0) / 65_535) * 255).rounded()) }
        // A pixel clipped in every frame (a channel at the clip level, raised by the vignetting gain there) is white;
        // the local map left it alone too.
        @inline(__always) func isClipped(_ q: UnsafePointer<Float>, x: Int, y: Int) -> Bool {
            let hottest = (0..<outChannels).reduce(Float(0)) { max($0, clean(q[$1])) }
            guard hottest >= saturation else { return false }
            guard let shading else { return true }
            return hottest >= saturation * Float(shading.gain(at: SIMD2(Double(x) + 0.5, Double(y) + 0.5)))
        }
        hdr.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                encode.withUnsafeBufferPointer { table in
                    let s = src.baseAddress!, d = dst.baseAddress!, t = table.baseAddress!
                    Parallel.forEachBand(height: h, bandHeight: bandHeight) { rows in
                        withUnsafeTemporaryAllocation(of: Float.self, capacity: w * outChannels) { row in
                            let r = row.baseAddress!
                            for y in rows {
                                exposedRow(y, s, into: r)
                                let o = d + y * w * outChannels
                                for x in 0..<w {
                                    let p = r + x * outChannels
                                    let l = norm(p, outChannels)
                                    let ratio = l > 0 ? (1 + l * inverseWhite2) / (1 + l) : 0
                                    if saturation.isFinite, isClipped(s + (y * w + x) * ch, x: x, y: y) {
                                        for c in 0..<outChannels { o[x * outChannels + c] = 255 }
                                        continue
                                    }
                                    for c in 0..<outChannels {
                                        o[x * outChannels + c] = t[Int(min(max(p[c] * ratio, 0), 1) * 65_535 + 0.5)]
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
