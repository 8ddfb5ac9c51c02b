import CaptureCore
import Foundation

/// Mertens weights of every frame of a bracket for any run of rows, computed on demand from the 8-bit
/// frames, so no full-resolution weight plane is ever held: `ExposureFusion` asks once for the rows it
/// reduces to the first pyramid level and once more, band by band, when it forms the finest level.
///
/// Weights are C^wc · S^ws · E^we (or, adding, wc·C + ws·S + we·E with S the HSL saturation) plus ε, times the
/// frame's consistency (deghosting) where given, then normalised across frames to sum to 1. Rows outside the image are
/// mirrored (BORDER_REFLECT_101, as the pyramid does).
final class WeightRows {
    let sources: [UnsafePointer<UInt8>]
    let width: Int, height: Int, count: Int
    let consistency: [TileGrid?]?
    private let exposureTable: UnsafeMutablePointer<Float>
    /// Saturation weight by V = 3(r² + g² + b²) − (r + g + b)², an integer in 0…130 050 for 8-bit RGB
    /// (the channels' variance is V / 9, in 0…255² units): (V / (9 · 3 · 255²))^(ws / 2), exact, no powf per pixel.
    private let saturationTable: UnsafeMutablePointer<Float>
    static let saturationLevels = 130_051
    private let wc: Float, ws: Float, useExposure: Bool, exposureOfGrey: Bool, adds: Bool
    /// we when adding (the table holds E), else 1 (the table holds E^we).
    private let exposureScale: Float

    /// Per-thread scratch for `compute`.
    struct Scratch {
        let grey: UnsafeMutablePointer<Float>
        let rgb: UnsafeMutablePointer<Float>
        let rows: Int
        init(rows: Int, width: Int) {
            self.rows = rows
            grey = .allocate(capacity: (rows + 2) * width)
            rgb = .allocate(capacity: 3 * width)
        }
        func deallocate() { grey.deallocate(); rgb.deallocate() }
    }

    init(_ fusion: ExposureFusion, sources: [UnsafePointer<UInt8>], width: Int, height: Int,
         consistency: [TileGrid?]?) {
        self.sources = sources
        self.width = width
        self.height = height
        count = sources.count
        self.consistency = consistency
        let sigma = fusion.exposureWidth, optimum = fusion.exposureOptimum, we = fusion.exposureWeight
        exposureTable = .allocate(capacity: 256)
        for v in 0..<256 {
            let d = Double(v) / 255 - optimum
            let e = exp(-d * d / (2 * sigma * sigma))
            // Adding, the table holds E itself (the product over channels is weighted once, by `exposureScale`).
            exposureTable[v] = Float(fusion.addsMeasures ? e : pow(e, we))
        }
        wc = Float(fusion.contrastWeight)
        ws = Float(fusion.saturationWeight)
        // Multiplying only: S^ws by the channels' variance (adding uses the HSL saturation, computed per pixel).
        saturationTable = .allocate(capacity: fusion.addsMeasures ? 1 : WeightRows.saturationLevels)
        let half = fusion.saturationWeight / 2
        for v in 0..<(fusion.addsMeasures ? 0 : WeightRows.saturationLevels) {
            saturationTable[v] = Float(pow(Double(v) / (9 * 3 * 255 * 255), half))
        }
        exposureScale = fusion.addsMeasures ? Float(we) : 1
        useExposure = fusion.exposureWeight != 0
        exposureOfGrey = fusion.measuresExposureOnGrey
        adds = fusion.addsMeasures
    }

    deinit {
        exposureTable.deallocate()
        saturationTable.deallocate()
    }

    func makeScratch(rows: Int) -> Scratch { Scratch(rows: rows, width: width) }

    /// Normalised weights of rows `rows` (which may reach up to two rows past either edge) for every
    /// frame: row `y` of frame k goes to `out[k] + (y − rows.lowerBound) · width`.
    func compute(rows: Range<Int>, into out: [UnsafeMutablePointer<Float>], scratch: inout Scratch) {
        let w = width, h = height, n = count, lo = rows.lowerBound, hi = rows.upperBound
        if scratch.rows < rows.count {
            scratch.deallocate()
            scratch = Scratch(rows: rows.count, width: w)
        }
        let greyBand = scratch.grey, rgb = scratch.rgb, et = exposureTable
        let r = rgb, g = rgb + w, b = rgb + 2 * w
        let kr = LumaWeights.rec601.x / 255, kg = LumaWeights.rec601.y / 255, kb = LumaWeights.rec601.z / 255
        let epsilon: Float = 1e-12
        let wc = wc, ws = ws
        for k in 0..<n {
            let src = sources[k]
            // Grey (for contrast only) for the rows and one halo row each side; colour weights for the rows themselves.
            for yy in (wc != 0 ? lo - 1 : lo)..<(wc != 0 ? hi + 1 : hi) {
                let y = reflect101(yy, h)
                let p = src + y * 3 * w
                if wc != 0 {
                    for x in 0..<w { r[x] = Float(p[3 * x]); g[x] = Float(p[3 * x + 1]); b[x] = Float(p[3 * x + 2]) }
                    let grey = greyBand + (yy - lo + 1) * w
                    for x in 0..<w { grey[x] = kr * r[x] + kg * g[x] + kb * b[x] }
                }
                guard yy >= lo && yy < hi else { continue }
                let o = out[k] + (yy - lo) * w
                if useExposure {
                    let scale = exposureScale
                    if exposureOfGrey {
                        for x in 0..<w { o[x] = scale * et[(Int(p[3 * x]) + Int(p[3 * x + 1]) + Int(p[3 * x + 2])) / 3] }
                    } else {
                        for x in 0..<w { o[x] = scale * et[Int(p[3 * x])] * et[Int(p[3 * x + 1])] * et[Int(p[3 * x + 2])] }
                    }
                } else {
                    o.update(repeating: adds ? 0 : 1, count: w)
                }
                if ws != 0 && adds {
                    // HSL saturation: chroma over 1 − |2L − 1|, in 8-bit units (0 for black and white).
                    for x in 0..<w {
                        let r = Int(p[3 * x]), g = Int(p[3 * x + 1]), b = Int(p[3 * x + 2])
                        let high = max(r, g, b), low = min(r, g, b), room = 255 - abs(high + low - 255)
                        if room > 0 { o[x] += ws * Float(high - low) / Float(room) }
                    }
                } else if ws != 0 {
                    let st = saturationTable
                    for x in 0..<w {
                        let r = Int(p[3 * x]), g = Int(p[3 * x + 1]), b = Int(p[3 * x + 2]), sum = r + g + b
                        o[x] *= st[3 * (r * r + g * g + b * b) - sum * sum]
                    }
                }
            }
            // Contrast: |4-neighbour Laplacian| of grey (mirrored at the image edges).
            if wc != 0 {
                for y in rows {
                    let up = greyBand + (y - lo) * w, mid = up + w, down = mid + w
                    let c = rgb  // scratch
                    if w == 1 {
                        c[0] = abs(up[0] + down[0] - 2 * mid[0])
                    } else {
                        c[0] = abs(up[0] + down[0] + 2 * mid[1] - 4 * mid[0])
                        c[w - 1] = abs(up[w - 1] + down[w - 1] + 2 * mid[w - 2] - 4 * mid[w - 1])
                        for x in 1..<max(1, w - 1) {
                            c[x] = abs(up[x] + down[x] + mid[x - 1] + mid[x + 1] - 4 * mid[x])
                        }
                    }
                    let o = out[k] + (y - lo) * w
                    if adds {
                        for x in 0..<w { o[x] += wc * c[x] }
                    } else if wc == 1 {
                        for x in 0..<w { o[x] *= c[x] }
                    } else {
                        for x in 0..<w { o[x] *= powf(c[x], wc) }
                    }
                }
            }
            // ε keeps the normalisation defined where every measure is zero (flat, clipped areas).
            for y in rows {
                let o = out[k] + (y - lo) * w
                for x in 0..<w { o[x] += epsilon }
            }
            // Deghosting: the frame counts only as far as it agrees with the reference (even where flat).
            if let map = consistency?[k] {
                let m = rgb
                for y in rows {
                    map.fillRow(reflect101(y, h), width: w, into: m)
                    let o = out[k] + (y - lo) * w
                    for x in 0..<w { o[x] *= m[x] }
                }
            }
        }
        // Normalise across frames: (wₖ + ε) · mₖ / Σ (wᵢ + ε) · mᵢ (the reference has no m and keeps the sum positive).
        let sum = rgb
        for y in rows {
            let offset = (y - lo) * w
            sum.update(repeating: 0, count: w)
            for k in 0..<n {
                let o = out[k] + offset
                for x in 0..<w { sum[x] += o[x] }
            }
            for x in 0..<w { sum[x] = 1 / sum[x] }
            for k in 0..<n {
                let o = out[k] + offset
                for x in 0..<w { o[x] *= sum[x] }
            }
        }
    }

    /// The weights' first Gaussian pyramid level (⌈w/2⌉ × ⌈h/2⌉ per frame), reduced band by band.
    func reducedOnce() -> [FloatPlane] {
        let w = width, h = height, n = count, ow = (w + 1) / 2, oh = (h + 1) / 2
        let planes = (0..<n).map { _ in FloatPlane(width: ow, height: oh) }
        Parallel.forEachBand(height: oh, bandHeight: 16) { rows in
            // Output row y needs full-resolution rows 2y − 2 … 2y + 2.
            let lo = 2 * rows.lowerBound - 2, hi = 2 * (rows.upperBound - 1) + 3
            var scratch = makeScratch(rows: hi - lo)
            let band = (0..<n).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: (hi - lo) * w) }
            let t = UnsafeMutablePointer<Float>.allocate(capacity: w)
            defer { scratch.deallocate(); band.forEach { $0.deallocate() }; t.deallocate() }
            compute(rows: lo..<hi, into: band, scratch: &scratch)
            for k in 0..<n {
                for y in rows {
                    let r0 = band[k] + (2 * y - 2 - lo) * w, r1 = r0 + w, r2 = r1 + w, r3 = r2 + w, r4 = r3 + w
                    for x in 0..<w { t[x] = (r0[x] + r4[x]) + 4 * (r1[x] + r3[x]) + 6 * r2[x] }
                    Pyramid.reduceRow(t, width: w, into: planes[k].row(y), outWidth: ow, scale: 1.0 / 256)
                }
            }
        }
        return planes
    }
}
