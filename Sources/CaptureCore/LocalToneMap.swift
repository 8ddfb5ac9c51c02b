import Foundation

/// Local tone mapping for a frame with highlight headroom (`RawImage.baselineExposure` > 0), as a phone renders a room
/// with a window onto daylight: a region whose light lies far above the room's is brought down by a smooth gain, so
/// the view through the window shows with its own contrast instead of sitting in the roll-off's top codes.
///
/// A bilateral grid (Chen, Paris and Durand 2007) of the raw frame's white-balanced green — about `cellsAcross`
/// cells on the long side, in bins of `binWidth` EV, blurred over neighbouring cells and bins — gives each pixel the
/// *base* of its surroundings at its own brightness: detail within about a bin keeps its contrast, while the step
/// from a wall to the sky is the base's and is compressed. A base above `knee` is compressed towards `ceiling`
/// (slope 1 at the knee, so the room is hardly touched). Where the raw clipped, the gain fades out (those bins hold
/// mostly clipped samples), so a blown sky stays white instead of turning grey. With a lens correction the grid follows
/// it (each output cell reads the raw grid where the lens put it).
///
/// The ISP renders photos with headroom through it (`ImagePipeline`), and `ToneMapper` (`Fusion`) renders merged
/// radiance through it.
package struct LocalToneMap: Sendable {
    /// Grid cells on the image's long side.
    package static let cellsAcross = 96
    /// Least headroom (EV) that gets a map: below it the roll-off alone serves (a converter's DNG with a small
    /// BaselineExposure keeps its bright walls where they are).
    package static let minimumHeadroom = 1.0
    /// Bins: `binCount` of `binWidth` EV from `lowest` (log2, 1.0 = white).
    static let binWidth: Float = 1, lowest: Float = -12, binCount = 20
    /// Base (log2) above which regions are compressed, and the level the brightest approach.
    static let knee: Float = -1, ceiling: Float = -0.6

    /// Pixels per cell side.
    let cell: Int
    let columns: Int, rows: Int
    /// Per cell and bin (`(row × columns + column) × binCount + bin`): the gain as a factor (≤ 1; interpolated as
    /// factors, so a pixel costs no exponential).
    let factor: [Float]
    /// Bins below this one have gain 0 everywhere (pixels that dark are left alone).
    let firstActiveBin: Int

    /// The map for `raw` developed with white-balance `gains` and `exposureGain` (the baseline exposure included);
    /// nil when the frame has no headroom or nothing to compress. `lens`: the correction the output is resampled
    /// with (nil: the output keeps the raw's geometry); `shading`: whether the ISP corrects the lens's vignetting.
    package init?(raw: RawImage, gains: SIMD3<Double>, exposureGain: Double, lens: LensCorrection?, shading: Bool) {
        let w = raw.width, h = raw.height
        guard raw.baselineExposure >= Self.minimumHeadroom, w >= 8, h >= 8 else { return nil }
        let cell = Self.cellSize(width: w, height: h)
        let grids = Self.accumulate(raw, cell: cell, scale: gains.y * exposureGain, shading: shading ? raw.vignettingCorrection : nil)
        self.init(grids: grids, width: w, height: h, cell: cell, lens: lens)
    }

    /// The same map made from scene-linear RGB brightened by `exposureGain` for a frame with `headroom` EV: the
    /// luminance of each 2 × 2 block (non-finite and negative values as black), clipped where a channel reaches
    /// `saturation` (in the input's units; 1.0, the sensor's, for `ImageSignalProcessor.renderReference`'s ground
    /// truth; a merged radiance passes the level where its shortest frame clipped, or infinity) times the gain of
    /// `shading` (the vignetting correction the input went through, if any) at the block's cell.
    package init?(linear: Raster<Float>, exposureGain: Double, headroom: Double, saturation: Float = 1,
                  shading: LensCorrection? = nil) {
        let w = linear.width, h = linear.height
        guard headroom >= Self.minimumHeadroom, w >= 8, h >= 8, linear.channels == 3 else { return nil }
        let cell = Self.cellSize(width: w, height: h), gain = Float(exposureGain)
        let weights = LumaWeights.rec709
        let columns = (w + cell - 1) / cell, rows = (h + cell - 1) / cell
        let levels: [Float] = (0..<(columns * rows)).map { k in
            guard let shading else { return saturation }
            let centre = SIMD2(Double(k % columns) + 0.5, Double(k / columns) + 0.5) * Double(cell)
            return saturation * Float(shading.gain(at: centre))
        }
        let grids = linear.storage.withUnsafeBufferPointer { pixels in
            let p = pixels.baseAddress!
            return Self.accumulate(width: w, height: h, cell: cell) { x0, y, count, k, values, clipped in
                for q in 0..<count {
                    var sum: Float = 0, hottest: Float = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let c = p + 3 * ((y + dy) * w + x0 + 2 * q + dx)
                        let r = c[0].isFinite ? max(c[0], 0) : 0, g = c[1].isFinite ? max(c[1], 0) : 0
                        let b = c[2].isFinite ? max(c[2], 0) : 0
                        sum += weights.x * r + weights.y * g + weights.z * b
                        hottest = max(hottest, r, g, b)
                    }
                    values[q] = sum / 4 * gain
                    clipped[q] = hottest >= levels[k] ? 1 : 0
                }
            }
        }
        self.init(grids: grids, width: w, height: h, cell: cell, lens: nil)
    }

    /// Cell side for an image: about `cellsAcross` cells on the long side, even so cells hold whole CFA quads.
    static func cellSize(width: Int, height: Int) -> Int { max(2, (max(width, height) / cellsAcross) & ~1) }

    /// Finishes a map from the raw geometry's Σ log2, count and clipped-count grids: placed in the output's
    /// geometry, blurred, and turned into gains.
    private init?(grids raw: [[Float]], width w: Int, height h: Int, cell: Int, lens: LensCorrection?) {
        let columns = (w + cell - 1) / cell, rows = (h + cell - 1) / cell, bins = Self.binCount
        let placed = lens?.hasWarp == true ? Self.warped(raw, lens: lens!, cell: cell, columns: columns, rows: rows) : raw
        let grids = Parallel.map(count: placed.count) { Self.blurred(placed[$0], columns: columns, rows: rows) }
        let sums = grids[0], counts = grids[1], clipped = grids[2]
        let span = Self.ceiling - Self.knee
        var gain = [Float](repeating: 0, count: sums.count)
        var firstActive = bins, compresses = false
        // A bin with no data near it takes its own centre as base (a prior of a thousandth of a cell's quads).
        let prior = 0.001 * Float(cell * cell) / 4
        for k in gain.indices {
            let centre = Self.lowest + (Float(k % bins) + 0.5) * Self.binWidth
            let base = (sums[k] + prior * centre) / (counts[k] + prior)
            guard base > Self.knee else { continue }
            // Bins mostly clipped in the raw keep gain 1: fully from 20 % clipped, none from 60 %.
            let t = min(max((clipped[k] / max(clipped[k] + counts[k], 1e-6) - 0.2) / 0.4, 0), 1)
            gain[k] = (Self.knee + span * (1 - exp(-(base - Self.knee) / span)) - base) * (1 - t * t * (3 - 2 * t))
            if gain[k] < -0.01 {
                firstActive = min(firstActive, k % bins)
                if counts[k] > 10 * prior { compresses = true }
            }
        }
        guard compresses else { return nil }
        self.cell = cell
        self.columns = columns
        self.rows = rows
        factor = gain.map { exp2($0) }
        firstActiveBin = firstActive
    }

    /// Per raw cell and bin, of the mean of each 2 × 2 quad's greens (normalised, times `scale`, with the gain of
    /// `shading` — `RawImage.vignettingCorrection` — at the cell's centre): see `accumulate(width:height:cell:quads:)`; a
    /// quad with a sample at the clip level counts as clipped.
    static func accumulate(_ raw: RawImage, cell: Int, scale: Double, shading: LensCorrection?) -> [[Float]] {
        if raw.isLinear { return accumulateLinear(raw, cell: cell, scale: scale, shading: shading) }
        let w = raw.width, h = raw.height, colors = raw.cfa.colors
        let blacks = (0..<4).map { raw.blackLevel.isEmpty ? 0 : Float(raw.blackLevel[$0 % raw.blackLevel.count]) }
        let greenPositions = (0..<4).filter { colors[$0] == 1 }
        let greenBlack = greenPositions.map { blacks[$0] }.reduce(0, +) / Float(max(greenPositions.count, 1))
        let range = max(1, Float(raw.whiteLevel) - greenBlack)
        let clipCode = raw.clipCode, clip = SIMD8<Float>(repeating: Float(raw.clipCode))
        // Offsets of the quad's green samples from its top-left one.
        let greens = greenPositions.map { ($0 / 2) * w + $0 % 2 }
        let green0 = greens.first ?? 0, green1 = greens.last ?? 0
        // Normalising factor per cell (the vignetting gain at its centre).
        let columns = (w + cell - 1) / cell, rows = (h + cell - 1) / cell
        let factors: [Float] = (0..<(columns * rows)).map { k in
            let centre = SIMD2(Double(k % columns) + 0.5, Double(k / columns) + 0.5) * Double(cell)
            return Float(scale / Double(2 * range) * (shading?.gain(at: centre) ?? 1))
        }
        let offset = 2 * greenBlack
        return raw.bayer.storage.withUnsafeBufferPointer { codes in
            let s = codes.baseAddress!
            return accumulate(width: w, height: h, cell: cell) { x0, y, count, k, values, clipped in
                let row = s + y * w, next = row + w, factor = factors[k]
                var q = 0
                // Eight quads at a time: sixteen samples of each row, split into the quads' left and right columns.
                while q + 8 <= count {
                    let a = UnsafeRawPointer(row + x0 + 2 * q).loadUnaligned(as: SIMD16<UInt16>.self)
                    let b = UnsafeRawPointer(next + x0 + 2 * q).loadUnaligned(as: SIMD16<UInt16>.self)
                    let samples = (a.evenHalf, a.oddHalf, b.evenHalf, b.oddHalf)
                    @inline(__always) func float(_ codes: SIMD8<UInt16>) -> SIMD8<Float> {
                        SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: codes))
                    }
                    let floats = (float(samples.0), float(samples.1), float(samples.2), float(samples.3))
                    @inline(__always) func pick(_ offset: Int) -> SIMD8<Float> {
                        offset == 0 ? floats.0 : offset == 1 ? floats.1 : offset == w ? floats.2 : floats.3
                    }
                    let value = (pick(green0) + pick(green1) - offset) * factor
                    // Compared as Floats: masks of integer vectors compile lane by lane through memory here.
                    let hot = floats.0 .>= clip .| floats.1 .>= clip .| floats.2 .>= clip .| floats.3 .>= clip
                    UnsafeMutableRawPointer(values + q).storeBytes(of: value, as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(clipped + q).storeBytes(of: SIMD8<Float>(repeating: 0).replacing(with: 1, where: hot),
                                                                    as: SIMD8<Float>.self)
                    q += 8
                }
                while q < count {
                    let x = x0 + 2 * q
                    let hottest = max(max(row[x], row[x + 1]), max(next[x], next[x + 1]))
                    values[q] = (Float(row[x + green0]) + Float(row[x + green1]) - offset) * factor
                    clipped[q] = hottest >= clipCode ? 1 : 0
                    q += 1
                }
            }
        }
    }

    /// `accumulate(_:cell:scale:shading:)` for a linear image (camera RGB, three samples a pixel): each 2 × 2 quad's
    /// value is the mean of its top-left and bottom-right pixels' green, as a mosaic's quad has its two greens there
    /// (RGGB), and it is clipped when any sample of its four pixels is.
    private static func accumulateLinear(_ raw: RawImage, cell: Int, scale: Double, shading: LensCorrection?) -> [[Float]] {
        let w = raw.width, h = raw.height
        let greenBlack = raw.blackLevel.isEmpty ? 0 : raw.blackLevel[1 % raw.blackLevel.count]
        let range = max(1, Float(raw.whiteLevel) - greenBlack)
        let clipCode = raw.clipCode
        let columns = (w + cell - 1) / cell, rows = (h + cell - 1) / cell
        let factors: [Float] = (0..<(columns * rows)).map { k in
            let centre = SIMD2(Double(k % columns) + 0.5, Double(k / columns) + 0.5) * Double(cell)
            return Float(scale / Double(2 * range) * (shading?.gain(at: centre) ?? 1))
        }
        return raw.bayer.storage.withUnsafeBufferPointer { codes in
            let s = codes.baseAddress!
            return accumulate(width: w, height: h, cell: cell) { x0, y, count, k, values, clipped in
                let row = s + y * w * 3, next = row + w * 3, factor = factors[k]
                for q in 0..<count {
                    let x = 3 * (x0 + 2 * q)
                    var hottest: UInt16 = 0
                    for c in 0..<6 { hottest = max(hottest, row[x + c], next[x + c]) }
                    values[q] = (Float(row[x + 1]) + Float(next[x + 4]) - 2 * greenBlack) * factor
                    clipped[q] = hottest >= clipCode ? 1 : 0
                }
            }
        }
    }

    /// Per cell (of `cell` pixels, `columns` across) and bin, over the image's 2 × 2 quads: Σ log2 of the quad's value
    /// and the number of quads, and apart (their value is only a lower bound) the number of clipped quads.
    /// `quads(x0, y, count, k, values, clipped)` writes the value of `count` consecutive quads from the one whose
    /// top-left pixel is (x0, y), all in cell `k`, and whether each is clipped (1) or not (0). Rows are read in order.
    /// A cell's quads are added into `partials` interleaved sums by their index along the cell's row (`q % partials`,
    /// each in row order; the partials then added in order): consecutive quads of one bin no longer wait on each
    /// other's addition through memory.
    @inline(__always)   // so each caller's `quads` is inlined into the loop
    private static func accumulate(width w: Int, height h: Int, cell: Int,
                                   quads: (Int, Int, Int, Int, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void)
        -> [[Float]] {
        let columns = (w + cell - 1) / cell, rows = (h + cell - 1) / cell, bins = binCount
        var sums = [Float](repeating: 0, count: columns * rows * bins), counts = sums, clipped = sums
        let lanes = (cell / 2 + 7) & ~7, partials = Self.partials, bandRows = 2
        sums.withUnsafeMutableBufferPointer { sumsOut in
            counts.withUnsafeMutableBufferPointer { countsOut in
                clipped.withUnsafeMutableBufferPointer { clippedOut in
                    let so = sumsOut.baseAddress!, co = countsOut.baseAddress!, cl = clippedOut.baseAddress!
                    Parallel.forEachBand(height: rows, bandHeight: bandRows) { cellRows in
                        let values = UnsafeMutablePointer<Float>.allocate(capacity: lanes)
                        let binned = UnsafeMutablePointer<Int32>.allocate(capacity: lanes)
                        let hot = UnsafeMutablePointer<Float>.allocate(capacity: lanes)
                        // The band's cells' partial sums, counts and clipped counts: [cell][partial][bin] each.
                        let stride = partials * bins, cells = cellRows.count * columns
                        let partial = UnsafeMutablePointer<Float>.allocate(capacity: 3 * cells * stride)
                        partial.initialize(repeating: 0, count: 3 * cells * stride)
                        values.initialize(repeating: 1, count: lanes)
                        defer { values.deallocate(); binned.deallocate(); hot.deallocate(); partial.deallocate() }
                        let partialSums = partial, partialCounts = partial + cells * stride, partialClipped = partial + 2 * cells * stride
                        for j in cellRows {
                            let y0 = j * cell, y1 = min(h, y0 + cell) & ~1
                            var y = y0
                            while y < y1 {
                                for i in 0..<columns {
                                    let x0 = i * cell, count = max(0, (min(w, x0 + cell) & ~1) - x0) / 2, k = j * columns + i
                                    quads(x0, y, count, k, values, hot)
                                    // log2 and bin eight at a time (lanes past `count` are computed and not used).
                                    var q = 0
                                    while q < count {
                                        let v = UnsafeRawPointer(values + q).loadUnaligned(as: SIMD8<Float>.self)
                                        // (A NaN value goes to the floor, bin 0; the scalar max kept it, in the top bin.)
                                        let floor = SIMD8<Float>(repeating: 1.0 / 65_536)
                                        let l = LocalToneMap.fastLog2(v.replacing(with: floor, where: .!(v .> floor)))
                                        // Bins by truncation, clamped first (SIMD's rounding conversion is a generic call per lane).
                                        let unclamped = (l - LocalToneMap.lowest) / LocalToneMap.binWidth
                                        let top = SIMD8<Float>(repeating: Float(bins - 1))
                                        let position = unclamped.replacing(with: 0, where: unclamped .< 0)
                                            .replacing(with: top, where: unclamped .> top)
                                        UnsafeMutableRawPointer(values + q).storeBytes(of: l, as: SIMD8<Float>.self)
                                        for lane in 0..<8 { binned[q + lane] = Int32(position[lane]) }
                                        q += 8
                                    }
                                    let local = ((j - cellRows.lowerBound) * columns + i) * stride
                                    let cellSums = partialSums + local, cellCounts = partialCounts + local
                                    let cellClipped = partialClipped + local
                                    for q in 0..<count {
                                        let slot = (q % partials) * bins + Int(binned[q])
                                        if hot[q] != 0 {
                                            cellClipped[slot] += 1
                                        } else {
                                            cellSums[slot] += values[q]
                                            cellCounts[slot] += 1
                                        }
                                    }
                                }
                                y += 2
                            }
                        }
                        // The partials added in order into the band's cells.
                        let grids = [(so, partialSums), (co, partialCounts), (cl, partialClipped)]
                        for c in 0..<cells {
                            let k = cellRows.lowerBound * columns + c
                            for (out, from) in grids {
                                let source = from + c * stride, target = out + k * bins
                                for bin in 0..<bins {
                                    var total = source[bin]
                                    for p in 1..<partials { total += source[p * bins + bin] }
                                    target[bin] = total
                                }
                            }
                        }
                    }
                }
            }
        }
        return [sums, counts, clipped]
    }

    /// Interleaved partial sums per cell and bin in `accumulate` (see there).
    static let partials = 4

    /// Raw-geometry grids resampled to the corrected image's geometry: each cell centre read (bilinearly, per bin)
    /// where the lens recorded it.
    private static func warped(_ grids: [[Float]], lens: LensCorrection, cell: Int, columns: Int, rows: Int) -> [[Float]] {
        let bins = binCount
        var outs = grids.map { [Float](repeating: 0, count: $0.count) }
        for j in 0..<rows {
            for i in 0..<columns {
                let centre = SIMD2(Double(i) + 0.5, Double(j) + 0.5) * Double(cell)
                let p = lens.recordedPoint(ofCorrected: centre, plane: 1) / Double(cell) - 0.5
                let x = min(max(p.x, 0), Double(columns - 1)), y = min(max(p.y, 0), Double(rows - 1))
                let i0 = min(Int(x), max(columns - 2, 0)), j0 = min(Int(y), max(rows - 2, 0))
                let i1 = min(i0 + 1, columns - 1), j1 = min(j0 + 1, rows - 1)
                let fx = Float(x - Double(i0)), fy = Float(y - Double(j0))
                let c00 = (j0 * columns + i0) * bins, c10 = (j0 * columns + i1) * bins
                let c01 = (j1 * columns + i0) * bins, c11 = (j1 * columns + i1) * bins
                let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                let o = (j * columns + i) * bins
                for g in grids.indices {
                    grids[g].withUnsafeBufferPointer { grid in
                        outs[g].withUnsafeMutableBufferPointer { out in
                            for bin in 0..<bins {
                                out[o + bin] = 0 + grid[c00 + bin] * w00 + grid[c10 + bin] * w10 + grid[c01 + bin] * w01
                                    + grid[c11 + bin] * w11
                            }
                        }
                    }
                }
            }
        }
        return outs
    }

    /// The grid blurred over cells and bins (5-tap binomial each way: bins within about 1 EV share a base, so detail
    /// that size keeps its contrast, while the 4 EV and more from a room to a window's view stay apart).
    private static func blurred(_ grid: [Float], columns: Int, rows: Int) -> [Float] {
        let bins = binCount
        var a = grid, b = grid
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 5 + bins) { scratch in
            let taps = scratch.baseAddress!, sums = taps + 5
            for (t, value) in [Float(1), 4, 6, 4, 1].enumerated() { taps[t] = value }
            a.withUnsafeMutableBufferPointer { aBuffer in
                b.withUnsafeMutableBufferPointer { bBuffer in
                    let a = aBuffer.baseAddress!, b = bBuffer.baseAddress!
                    /// Cell `index` of `count` along a line whose neighbours are `step` floats apart, from `source` to
                    /// `target` (edges renormalised; each value's taps added in order).
                    @inline(__always) func blur(_ source: UnsafePointer<Float>, _ target: UnsafeMutablePointer<Float>,
                                                index: Int, count: Int, step: Int) {
                        let taps5 = max(-2, -index)...min(2, count - 1 - index)
                        var weight: Float = 0
                        for bin in 0..<bins { sums[bin] = 0 }
                        for t in taps5 {
                            let tap = taps[t + 2], line = source + t * step
                            for bin in 0..<bins { sums[bin] += tap * line[bin] }
                            weight += tap
                        }
                        for bin in 0..<bins { target[bin] = sums[bin] / weight }
                    }
                    // Across columns, then rows, then bins.
                    for j in 0..<rows {
                        for i in 0..<columns {
                            let k = (j * columns + i) * bins
                            blur(a + k, b + k, index: i, count: columns, step: bins)
                        }
                    }
                    for j in 0..<rows {
                        for i in 0..<columns {
                            let k = (j * columns + i) * bins
                            blur(b + k, a + k, index: j, count: rows, step: columns * bins)
                        }
                    }
                    for k in stride(from: 0, to: grid.count, by: bins) {
                        for bin in 0..<bins {
                            var sum: Float = 0
                            for t in max(-2, -bin)...min(2, bins - 1 - bin) { sum += taps[t + 2] * a[k + bin + t] }
                            b[k + bin] = sum / 16
                        }
                    }
                }
            }
        }
        return b
    }

    /// log2 within about 0.005 for positive normal `x` (exponent plus a quadratic in the mantissa).
    @inline(__always)
    package static func fastLog2(_ x: Float) -> Float {
        let bits = x.bitPattern
        let exponent = Float(Int32(bitPattern: bits >> 23) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)
        return exponent + (-0.344_848_43 * m + 2.024_665_78) * m - 1.674_877_59
    }

    /// `fastLog2` of eight values, lane for lane the same results.
    @inline(__always)
    static func fastLog2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
        let exponent = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: bits &>> 23) &- 127)
        let m = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: SIMD8<Float>.self)
        return exponent + (-0.344_848_43 * m + 2.024_665_78) * m - 1.674_877_59
    }

    /// Applies the gains to `width` pixels of output row `y` (linear RGB, 1.0 = white), in place; a pixel's channels
    /// are `r[x × stride]`, `g[x × stride]` and `b[x × stride]` (planar rows: stride 1; interleaved RGB: 3).
    package func apply(r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>,
                       stride: Int = 1, row y: Int, width: Int) {
        let bins = Self.binCount
        let v = min(max((Float(y) + 0.5) / Float(cell) - 0.5, 0), Float(rows - 1))
        let j0 = min(Int(v), max(rows - 2, 0)), j1 = min(j0 + 1, rows - 1), fy = v - Float(j0)
        let inverseCell = 1 / Float(cell), inverseBin = 1 / Self.binWidth
        // A pixel this dark reads only bins with no gain.
        let darkest = Self.lowest + Float(firstActiveBin - 1) * Self.binWidth, lowest = Self.lowest
        let luma = LumaWeights.rec709
        // The row's factors per column, for the bins a pixel can read (two below the first active one up), rows blended
        // once per row.
        let lo = max(firstActiveBin - 2, 0), active = bins - lo
        withUnsafeTemporaryAllocation(of: Float.self, capacity: columns * active) { table in
            let t = table.baseAddress!
            factor.withUnsafeBufferPointer { grid in
                let upper = grid.baseAddress! + j0 * columns * bins + lo, lower = grid.baseAddress! + j1 * columns * bins + lo
                for i in 0..<columns {
                    for bin in 0..<active { t[i * active + bin] = upper[i * bins + bin] * (1 - fy) + lower[i * bins + bin] * fy }
                }
            }
            let lowestRead = lowest + Float(lo) * Self.binWidth
            // Pixels between cell centres i and i + 1 share their cells: the two columns' bins.
            for i in -1..<columns {
                let start = i < 0 ? 0 : min(width, Int((Float(i) + 0.5) * Float(cell)))
                let end = i == columns - 1 ? width : min(width, Int((Float(i) + 1.5) * Float(cell)))
                guard start < end else { continue }
                let left = t + max(i, 0) * active, right = t + min(i + 1, columns - 1) * active
                // z0 = floor(z) from the float's bits: 2²³ + max(z − ½, 0) holds round(z − ½) in its low mantissa bits (z
                // lies in 0…19; an integer z may give z − 1 with fz = 1, the same value): no checked conversion per pixel.
                let top = Float(active - 1), lastPair = active - 2, origin = Float(i) + 0.5
                var x = start
                if stride == 1 {
                    // Eight pixels at a time; the four table reads per pixel are gathered lane by lane.
                    let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
                    while x + 8 <= end {
                        let rv = UnsafeRawPointer(r + x).loadUnaligned(as: SIMD8<Float>.self)
                        let gv = UnsafeRawPointer(g + x).loadUnaligned(as: SIMD8<Float>.self)
                        let bv = UnsafeRawPointer(b + x).loadUnaligned(as: SIMD8<Float>.self)
                        // (Clamps written as selects: the standard library's pointwise min and max are calls here.)
                        let l = luma.x * rv + luma.y * gv + luma.z * bv
                        let level = Self.fastLog2(l.replacing(with: 1.0 / 65_536, where: l .< 1.0 / 65_536))
                        var fx = (SIMD8(repeating: Float(x)) + lanes + 0.5) * inverseCell - origin
                        fx.replace(with: 0, where: fx .< 0)
                        fx.replace(with: 1, where: fx .> 1)
                        var z = (level - lowestRead) * inverseBin - 0.5
                        z.replace(with: 0, where: z .< 0)
                        z.replace(with: top, where: z .> top)
                        var below = z - 0.5
                        below.replace(with: 0, where: below .< 0)
                        below.replace(with: Float(lastPair), where: below .> Float(lastPair))   // (integer selects go lane by lane)
                        let z0 = unsafeBitCast(below + 8_388_608, to: SIMD8<Int32>.self) & 0x7F_FFFF
                        let fz = z - SIMD8<Float>(z0)
                        @inline(__always) func gather(_ table: UnsafeMutablePointer<Float>, _ offset: Int) -> SIMD8<Float> {
                            SIMD8(table[Int(z0[0]) + offset], table[Int(z0[1]) + offset], table[Int(z0[2]) + offset],
                                  table[Int(z0[3]) + offset], table[Int(z0[4]) + offset], table[Int(z0[5]) + offset],
                                  table[Int(z0[6]) + offset], table[Int(z0[7]) + offset])
                        }
                        let l0 = gather(left, 0), l1 = gather(left, 1), r0 = gather(right, 0), r1 = gather(right, 1)
                        let near = l0 + (l1 - l0) * fz, far = r0 + (r1 - r0) * fz
                        let m = (near + (far - near) * fx).replacing(with: 1, where: level .<= darkest)
                        UnsafeMutableRawPointer(r + x).storeBytes(of: rv * m, as: SIMD8<Float>.self)
                        UnsafeMutableRawPointer(g + x).storeBytes(of: gv * m, as: SIMD8<Float>.self)
                        UnsafeMutableRawPointer(b + x).storeBytes(of: bv * m, as: SIMD8<Float>.self)
                        x += 8
                    }
                }
                while x < end {
                    let k = x &* stride
                    let l = luma.x * r[k] + luma.y * g[k] + luma.z * b[k]
                    let level = Self.fastLog2(max(l, 1.0 / 65_536))
                    let fx = min(max((Float(x) + 0.5) * inverseCell - origin, 0), 1)
                    x += 1
                    guard level > darkest else { continue }
                    let z = min(max((level - lowestRead) * inverseBin - 0.5, 0), top)
                    let z0 = min(Int((max(z - 0.5, 0) + 8_388_608).bitPattern & 0x7F_FFFF), lastPair), fz = z - Float(z0)
                    let near = left[z0] + (left[z0 + 1] - left[z0]) * fz
                    let far = right[z0] + (right[z0 + 1] - right[z0]) * fz
                    let m = near + (far - near) * fx
                    r[k] *= m
                    g[k] *= m
                    b[k] *= m
                }
            }
        }
    }
}
