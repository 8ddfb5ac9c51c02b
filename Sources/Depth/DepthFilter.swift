import CaptureCore
import Foundation

/// Hole filling and edge-aware smoothing of depth or disparity maps, guided by the image they were
/// measured with (what Apple calls a filtered depth map: no holes, edges following the picture).
public enum DepthFilter {
    /// Holes (NaN) filled and edges kept: an edge-aware smoothing guided by `guide` (1 ch, same size).
    ///
    /// First every hole gets a coarse value by push-pull (a pyramid of confidence-weighted means);
    /// then a joint bilateral filter (spatial σ 3 px, range σ 10 % of the guide's range, 9×9 taps)
    /// weighs measured pixels 1 and filled ones 0.05, twice, so a hole takes its value from measured
    /// neighbours of similar brightness and measured edges stay where the guide's edges are.
    public static func filtered(_ values: Raster<Float>, guide: Raster<Float>) throws -> Raster<Float> {
        guard values.channels == 1, guide.channels == 1 else {
            throw DepthError.mismatchedInputs("depth and guide must have 1 channel (\(values.channels), \(guide.channels))")
        }
        guard values.size == guide.size else { throw DepthError.mismatchedInputs("depth \(values.size), guide \(guide.size)") }
        let w = values.width, h = values.height
        let confidence = values.storage.map { $0.isFinite ? Float(1) : 0 }
        guard confidence.contains(1) else { throw DepthError.noData("the depth map has no finite value") }
        var filled = pushPull(values.storage.map { $0.isFinite ? $0 : 0 }, confidence, width: w, height: h)
        // The guide on a 0…1 scale.
        var low = Float.infinity, high = -Float.infinity
        for g in guide.storage where g.isFinite { low = min(low, g); high = max(high, g) }
        let span = high > low ? high - low : 1
        let g = guide.storage.map { $0.isFinite ? ($0 - low) / span : 0 }
        let weights = confidence.map { $0 > 0 ? Float(1) : 0.05 }
        for _ in 0..<2 { filled = jointBilateral(filled, weights, guide: g, width: w, height: h, radius: 4, sigmaSpace: 3, sigmaRange: 0.1) }
        return Raster(width: w, height: h, storage: filled)
    }

    /// Every pixel with confidence 0 given the confidence-weighted mean of the nearest coarser level
    /// that has data there; measured pixels unchanged.
    static func pushPull(_ values: [Float], _ confidence: [Float], width: Int, height: Int) -> [Float] {
        guard width > 1 || height > 1 else { return values }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var sum = [Float](repeating: 0, count: cw * ch), weight = [Float](repeating: 0, count: cw * ch)
        for y in 0..<height {
            for x in 0..<width {
                let c = confidence[y * width + x]
                sum[(y / 2) * cw + x / 2] += c * values[y * width + x]
                weight[(y / 2) * cw + x / 2] += c
            }
        }
        let coarseValues = zip(sum, weight).map { $1 > 0 ? $0 / $1 : 0 }
        let coarseConfidence = weight.map { min(1, $0) }
        let coarse = coarseConfidence.contains(0) ? pushPull(coarseValues, coarseConfidence, width: cw, height: ch) : coarseValues
        var out = values
        for y in 0..<height {
            for x in 0..<width where confidence[y * width + x] == 0 { out[y * width + x] = coarse[(y / 2) * cw + x / 2] }
        }
        return out
    }

    /// A joint bilateral filter of `values` with per-pixel `weights`, the range kernel on `guide`.
    /// The spatial kernel is precomputed and the range kernel read from a table over |Δguide| up to
    /// 6 σ (beyond, e^−18: zero), so the inner loop has no `exp`.
    static func jointBilateral(_ values: [Float], _ weights: [Float], guide: [Float], width: Int, height: Int,
                               radius: Int, sigmaSpace: Float, sigmaRange: Float) -> [Float] {
        var out = values
        let side = 2 * radius + 1
        var spatial: [Float] = []
        for dy in -radius...radius { for dx in -radius...radius { spatial.append(expf(Float(-(dx * dx + dy * dy)) / (2 * sigmaSpace * sigmaSpace))) } }
        let tableSize = 4096
        let tableReach = 6 * sigmaRange, tableScale = Float(tableSize - 1) / tableReach
        let range = (0..<tableSize).map { i -> Float in
            let d = Float(i) / tableScale
            return expf(-d * d / (2 * sigmaRange * sigmaRange))
        } + [0]
        values.withUnsafeBufferPointer { v in
            weights.withUnsafeBufferPointer { c in
                guide.withUnsafeBufferPointer { g in
                    spatial.withUnsafeBufferPointer { sk in
                        range.withUnsafeBufferPointer { rk in
                            out.withUnsafeMutableBufferPointer { dst in
                                nonisolated(unsafe) let dst = dst
                                // Each band writes only its own rows of `out`.
                                Parallel.forEachBand(height: height, bandHeight: 32) { rows in
                                    for y in rows {
                                        let y0 = max(0, y - radius), y1 = min(height - 1, y + radius)
                                        for x in 0..<width {
                                            let centre = g[y * width + x]
                                            let x0 = max(0, x - radius), x1 = min(width - 1, x + radius)
                                            var total: Float = 0, norm: Float = 0
                                            for yy in y0...y1 {
                                                let kRow = (yy - y + radius) * side + radius - x, row = yy * width
                                                for xx in x0...x1 {
                                                    let q = row + xx
                                                    let d = abs(g[q] - centre) * tableScale
                                                    let index = d < Float(tableSize) ? Int(d) : tableSize
                                                    let wq = c[q] * sk[kRow + xx] * rk[index]
                                                    total += wq * v[q]
                                                    norm += wq
                                                }
                                            }
                                            dst[y * width + x] = norm > 0 ? total / norm : v[y * width + x]
                                        }
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
