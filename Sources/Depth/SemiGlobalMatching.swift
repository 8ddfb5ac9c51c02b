import CaptureCore

/// Census-cost semi-global matching with the left image as reference (Hirschmüller 2008, with the
/// census cost and the band/SIMD layout of Spangenberg et al. 2014).
///
/// Memory stays bounded: costs are computed row by row from the census codes (never stored as a
/// volume); the aggregated sum S (Int16, W × D per row) is held only for the core rows of one row
/// band per worker. Vertical and diagonal paths enter a band from `margin` rows above and below, so
/// bands run independently on all cores; the cut depends on the image and parameters only, never
/// on the machine, so results are the same everywhere.
struct SemiGlobalMatching {
    let width: Int
    let height: Int
    let minDisparity: Int
    /// Disparities searched.
    let count: Int
    /// `count` rounded up to the SIMD width.
    let paddedCount: Int
    /// Elements per pixel slot of a path buffer: 8 guard elements, `paddedCount` values, 8 guards.
    let slot: Int
    let p1: Int16
    /// P2 for each intensity step |ΔI| (0…255) along a path.
    let p2Table: [Int16]
    let eightPaths: Bool
    let uniqueness: Float
    let lrTolerance: Int?
    let subpixel: StereoMatcher.SubpixelFit
    let bandRows: Int
    let margin: Int

    typealias V = SIMD16<Int16>
    static let lanes = 16
    /// Value of the guard elements around each slot: large, so `min(L(d ± 1)) + P1` never picks them.
    static let guardValue: Int16 = 0x2000
    /// Cost of the SIMD padding beyond `count` (and of every disparity left of the smallest one): above any census cost (≤ 31).
    static let invalidCost: Int16 = 48

    init(width: Int, height: Int, parameters p: StereoMatcher.Parameters) {
        self.width = width
        self.height = height
        minDisparity = p.minDisparity
        count = p.disparityCount
        paddedCount = (count + Self.lanes - 1) / Self.lanes * Self.lanes
        slot = paddedCount + 16
        p1 = Int16(p.p1)
        let gamma = p.p2EdgeScale
        p2Table = (0...255).map { step in
            let scaled = gamma > 0 ? Float(p.p2) * gamma / (gamma + Float(step)) : Float(p.p2)
            return Int16(max(Float(p.p1 + 1), scaled.rounded()))
        }
        eightPaths = p.paths == .eight
        uniqueness = p.uniqueness
        lrTolerance = p.lrTolerance
        subpixel = p.subpixel
        margin = p.bandMargin
        // Core rows per band from the memory budget for S; an even number of bands when there are
        // several, so two workers finish together.
        let rowBytes = max(1, width * paddedCount * 2)
        let budgetRows = max(16, p.bandMemoryBudget / rowBytes)
        var bands = max(1, (height + budgetRows - 1) / budgetRows)
        if height >= 64 { bands = max(bands, 2) }
        if bands > 1, bands % 2 == 1 { bands += 1 }
        bandRows = max(1, (height + bands - 1) / bands)
    }

    /// Disparities (pixels, left x − right x) for every pixel of the left image; NaN where none is valid.
    func match(leftCodes: [UInt32], rightCodes: [UInt32], leftLuma: [UInt8]) -> [Float] {
        var output = [Float](repeating: .nan, count: width * height)
        leftCodes.withUnsafeBufferPointer { lc in
            rightCodes.withUnsafeBufferPointer { rc in
                leftLuma.withUnsafeBufferPointer { luma in
                    output.withUnsafeMutableBufferPointer { out in
                        nonisolated(unsafe) let out = out
                        // S buffers are reused by the next band instead of freshly mapped (and zeroed
                        // by the kernel) for every band; at most one per worker exists.
                        let pool = Locked<[UnsafeMutablePointer<Int16>]>([])
                        let capacity = bandRows * width * paddedCount
                        // Each band writes only its own core rows of `out`.
                        Parallel.forEachBand(height: height, bandHeight: bandRows) { rows in
                            let sums = pool.withLock { $0.popLast() } ?? .allocate(capacity: capacity)
                            band(rows, sums, lc.baseAddress!, rc.baseAddress!, luma.baseAddress!, out.baseAddress!)
                            pool.withLock { $0.append(sums) }
                        }
                        for buffer in pool.wrappedValue { buffer.deallocate() }
                    }
                }
            }
        }
        return output
    }

    // MARK: - One band

    private func band(_ core: Range<Int>, _ sums: UnsafeMutablePointer<Int16>, _ leftCodes: UnsafePointer<UInt32>, _ rightCodes: UnsafePointer<UInt32>,
                      _ luma: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<Float>) {
        let w = width, dv = paddedCount, slot = slot
        let rowElements = w * dv
        let top = max(0, core.lowerBound - margin), bottom = min(height, core.upperBound + margin)

        let costs = UnsafeMutablePointer<Int16>.allocate(capacity: rowElements + Self.lanes)
        costs.initialize(repeating: 0, count: rowElements + Self.lanes)
        let reversedCount = w + minDisparity + dv + Self.lanes
        let reversed = UnsafeMutablePointer<UInt32>.allocate(capacity: reversedCount)
        reversed.initialize(repeating: 0, count: reversedCount)
        // Three row-to-row paths × two rows (previous, current) × (w + 2) slots; slots 0 and w + 1 stay zero.
        let rowSlots = (w + 2) * slot
        let pathRows = UnsafeMutablePointer<Int16>.allocate(capacity: 6 * rowSlots)
        let pathMins = UnsafeMutablePointer<Int16>.allocate(capacity: 6 * (w + 2))
        // Horizontal paths: a zero slot and two alternating slots.
        let lineSlots = UnsafeMutablePointer<Int16>.allocate(capacity: 3 * slot)
        let steps = UnsafeMutablePointer<PathStep>.allocate(capacity: 4)
        let lowest = UnsafeMutablePointer<V>.allocate(capacity: 4)
        lowest.initialize(repeating: V(), count: 4)
        defer {
            steps.deallocate(); lowest.deallocate()
            costs.deallocate(); reversed.deallocate()
            pathRows.deallocate(); pathMins.deallocate(); lineSlots.deallocate()
        }
        func resetSlots(_ p: UnsafeMutablePointer<Int16>, slots: Int) {
            p.initialize(repeating: 0, count: slots * slot)
            for s in 0..<slots {
                for g in 0..<8 { p[s * slot + g] = Self.guardValue; p[s * slot + 8 + dv + g] = Self.guardValue }
            }
        }
        resetSlots(lineSlots, slots: 3)

        func computeCosts(_ y: Int) {
            let r = rightCodes + y * w
            for j in 0..<w { reversed[j] = r[w - 1 - j] }
            let l = leftCodes + y * w
            let raw = UnsafeRawPointer(reversed)
            for x in 0..<w {
                let code = SIMD16<UInt32>(repeating: l[x])
                let base = w - 1 - x + minDisparity
                let row = UnsafeMutableRawPointer(costs + x * dv)
                var d = 0
                while d < dv {
                    var v = raw.loadUnaligned(fromByteOffset: (base + d) * 4, as: SIMD16<UInt32>.self) ^ code
                    v = v &- ((v &>> 1) & 0x5555_5555)
                    v = (v & 0x3333_3333) &+ ((v &>> 2) & 0x3333_3333)
                    v = (v &+ (v &>> 4)) & 0x0F0F_0F0F
                    v = v &+ (v &>> 8)
                    v = (v &+ (v &>> 16)) & 0x3F
                    row.storeBytes(of: SIMD16<Int16>(truncatingIfNeeded: v), toByteOffset: d * 2, as: V.self)
                    d += Self.lanes
                }
                // Disparities that leave the image repeat the last one inside it, so they neither
                // attract nor repel the paths (a constant cost would bias flat regions towards the
                // smallest disparities); the SIMD padding beyond `count` costs more than any match.
                let valid = max(0, min(count, x - minDisparity + 1))
                let edge = valid > 0 ? costs[x * dv + valid - 1] : Self.invalidCost
                for d in valid..<count { costs[x * dv + d] = edge }
                for d in count..<dv { costs[x * dv + d] = Self.invalidCost }
            }
        }

        // The paths between rows: (dx of the previous pixel, buffer index).
        let rowPaths: [Int] = eightPaths ? [-1, 0, 1] : [0]

        // Top-down pass: L→R, R→L and the paths from above; S of core rows = their sum.
        resetSlots(pathRows, slots: 6 * (w + 2))
        pathMins.initialize(repeating: 0, count: 6 * (w + 2))
        var current = 0
        for y in top..<core.upperBound {
            computeCosts(y)
            let inCore = y >= core.lowerBound
            let sumRow = sums + (inCore ? (y - core.lowerBound) * rowElements : 0)
            let lumaRow = luma + y * w
            // R→L stores S; L→R runs with the paths from above (it shares their pass over the row).
            if inCore { horizontal(costs, lumaRow, sumRow, lineSlots, store: true, leftToRight: false) }
            rows(y, y - 1, y == top, rowPaths, leftToRight: inCore, costs, luma, inCore ? sumRow : nil, pathRows, pathMins,
                 lineSlots, steps, lowest, &current)
        }
        // Bottom-up pass: the paths from below complete S row by row; each finished row is decided.
        resetSlots(pathRows, slots: 6 * (w + 2))
        pathMins.initialize(repeating: 0, count: 6 * (w + 2))
        current = 0
        // The right view's best S and disparity, stored right to left (index w − 1 − xr) so that one
        // left pixel's disparities touch consecutive entries; padded for whole SIMD loads.
        let rightCount = w + minDisparity + dv + Self.lanes
        let rightBest = UnsafeMutablePointer<Int16>.allocate(capacity: rightCount)
        let rightIndex = UnsafeMutablePointer<Int16>.allocate(capacity: rightCount)
        let bestIndex = UnsafeMutablePointer<Int32>.allocate(capacity: w)
        rightBest.initialize(repeating: 0, count: rightCount)
        rightIndex.initialize(repeating: 0, count: rightCount)
        bestIndex.initialize(repeating: 0, count: w)
        defer { rightBest.deallocate(); rightIndex.deallocate(); bestIndex.deallocate() }
        for y in stride(from: bottom - 1, through: core.lowerBound, by: -1) {
            computeCosts(y)
            let inCore = y < core.upperBound
            let sumRow = sums + (inCore ? (y - core.lowerBound) * rowElements : 0)
            rows(y, y + 1, y == bottom - 1, rowPaths, leftToRight: false, costs, luma, inCore ? sumRow : nil, pathRows,
                 pathMins, lineSlots, steps, lowest, &current)
            if inCore { decide(y, sumRow, out + y * w, rightBest, rightIndex, bestIndex) }
        }
    }

    /// One step of a path: L(p, d) = C(p, d) + min(L(p−r, d), L(p−r, d±1) + P1, min L(p−r) + P2) − min L(p−r),
    /// written to `current`, added to (or stored in) `sum`; returns min_d L(p).
    @inline(__always)
    private func step(_ cost: UnsafePointer<Int16>, _ previous: UnsafePointer<Int16>, _ previousMin: Int16,
                      _ current: UnsafeMutablePointer<Int16>, _ sum: UnsafeMutablePointer<Int16>?, store: Bool,
                      p2: Int16) -> Int16 {
        let vp1 = V(repeating: p1)
        let jump = V(repeating: previousMin &+ p2)
        let floor = V(repeating: previousMin)
        var lowest = V(repeating: .max)
        let prev = UnsafeRawPointer(previous), cur = UnsafeMutableRawPointer(current), c = UnsafeRawPointer(cost)
        var d = 0
        while d < paddedCount {
            let same = prev.loadUnaligned(fromByteOffset: (8 + d) * 2, as: V.self)
            let below = prev.loadUnaligned(fromByteOffset: (7 + d) * 2, as: V.self)
            let above = prev.loadUnaligned(fromByteOffset: (9 + d) * 2, as: V.self)
            let m = vmin(vmin(same, vmin(below, above) &+ vp1), jump)
            let l = c.loadUnaligned(fromByteOffset: d * 2, as: V.self) &+ m &- floor
            cur.storeBytes(of: l, toByteOffset: (8 + d) * 2, as: V.self)
            lowest = vmin(lowest, l)
            if let sum {
                let s = UnsafeMutableRawPointer(sum)
                if store {
                    s.storeBytes(of: l, toByteOffset: d * 2, as: V.self)
                } else {
                    s.storeBytes(of: s.loadUnaligned(fromByteOffset: d * 2, as: V.self) &+ l, toByteOffset: d * 2, as: V.self)
                }
            }
            d += Self.lanes
        }
        return hmin(lowest)
    }

    /// A horizontal path along one row.
    private func horizontal(_ costs: UnsafePointer<Int16>, _ luma: UnsafePointer<UInt8>, _ sumRow: UnsafeMutablePointer<Int16>,
                            _ slots: UnsafeMutablePointer<Int16>, store: Bool, leftToRight: Bool) {
        let dv = paddedCount
        var previous = UnsafePointer(slots), previousMin: Int16 = 0
        var target = 1
        var x = leftToRight ? 0 : width - 1
        let dx = leftToRight ? 1 : -1
        var lastLuma = luma[x]
        for _ in 0..<width {
            let current = slots + target * slot
            let p2 = p2Table[Int(abs(Int16(luma[x]) - Int16(lastLuma)))]
            previousMin = step(costs + x * dv, previous, previousMin, current, sumRow + x * dv, store: store, p2: p2)
            previous = UnsafePointer(current)
            lastLuma = luma[x]
            target = 3 - target
            x += dx
        }
    }

    /// One path's step at one pixel: where its previous L is, and where the new one goes.
    struct PathStep {
        var previous: UnsafePointer<Int16>
        var previousMin: Int16
        var current: UnsafeMutablePointer<Int16>
        var p2: Int16
    }

    /// `n` paths' steps at one pixel in one pass over the disparities (the cost and S are read
    /// once); `lowest[i]` receives path i's lane minima. S (`sum`) is added to.
    @inline(__always)
    private func fusedStep(_ cost: UnsafePointer<Int16>, _ steps: UnsafePointer<PathStep>, _ n: Int,
                           _ lowest: UnsafeMutablePointer<V>, _ sum: UnsafeMutablePointer<Int16>?) {
        let vp1 = V(repeating: p1)
        for i in 0..<n { lowest[i] = V(repeating: .max) }
        let c = UnsafeRawPointer(cost)
        var d = 0
        while d < paddedCount {
            let cv = c.loadUnaligned(fromByteOffset: d * 2, as: V.self)
            var total = V()
            for i in 0..<n {
                let step = steps[i]
                let prev = UnsafeRawPointer(step.previous)
                let same = prev.loadUnaligned(fromByteOffset: (8 + d) * 2, as: V.self)
                let below = prev.loadUnaligned(fromByteOffset: (7 + d) * 2, as: V.self)
                let above = prev.loadUnaligned(fromByteOffset: (9 + d) * 2, as: V.self)
                let m = vmin(vmin(same, vmin(below, above) &+ vp1), V(repeating: step.previousMin &+ step.p2))
                let l = cv &+ m &- V(repeating: step.previousMin)
                UnsafeMutableRawPointer(step.current).storeBytes(of: l, toByteOffset: (8 + d) * 2, as: V.self)
                lowest[i] = vmin(lowest[i], l)
                total &+= l
            }
            if let sum {
                let s = UnsafeMutableRawPointer(sum)
                s.storeBytes(of: s.loadUnaligned(fromByteOffset: d * 2, as: V.self) &+ total, toByteOffset: d * 2, as: V.self)
            }
            d += Self.lanes
        }
    }

    /// The row-to-row paths into row `y` from row `from` (above or below; `dxs` their horizontal
    /// steps), and, with `leftToRight`, the L→R path of the row, fused in one pass per pixel.
    private func rows(_ y: Int, _ from: Int, _ first: Bool, _ dxs: [Int], leftToRight: Bool, _ costs: UnsafePointer<Int16>,
                      _ luma: UnsafePointer<UInt8>, _ sumRow: UnsafeMutablePointer<Int16>?,
                      _ pathRows: UnsafeMutablePointer<Int16>, _ pathMins: UnsafeMutablePointer<Int16>,
                      _ lineSlots: UnsafeMutablePointer<Int16>, _ steps: UnsafeMutablePointer<PathStep>,
                      _ lowest: UnsafeMutablePointer<V>, _ current: inout Int) {
        let w = width, dv = paddedCount
        let rowSlots = (w + 2) * slot
        let lumaRow = luma + y * w
        let lumaFrom = luma + (first ? y : from) * w
        let k = dxs.count
        var prevRows: [UnsafeMutablePointer<Int16>] = [], curRows: [UnsafeMutablePointer<Int16>] = []
        var prevMins: [UnsafeMutablePointer<Int16>] = [], curMins: [UnsafeMutablePointer<Int16>] = []
        for i in 0..<k {
            prevRows.append(pathRows + (2 * i + 1 - current) * rowSlots)
            curRows.append(pathRows + (2 * i + current) * rowSlots)
            prevMins.append(pathMins + (2 * i + 1 - current) * (w + 2))
            curMins.append(pathMins + (2 * i + current) * (w + 2))
        }
        var linePrevious = UnsafePointer(lineSlots), linePreviousMin: Int16 = 0, lineTarget = 1
        for x in 0..<w {
            for i in 0..<k {
                let source = x + dxs[i]   // the previous pixel's column; its slot is column + 1
                let fromLuma = source >= 0 && source < w ? lumaFrom[source] : lumaRow[x]
                steps[i] = PathStep(previous: prevRows[i] + (source + 1) * slot, previousMin: prevMins[i][source + 1],
                                    current: curRows[i] + (x + 1) * slot,
                                    p2: p2Table[Int(abs(Int16(lumaRow[x]) - Int16(fromLuma)))])
            }
            var n = k
            if leftToRight {
                let step = Int(abs(Int16(lumaRow[x]) - Int16(lumaRow[max(0, x - 1)])))
                steps[n] = PathStep(previous: linePrevious, previousMin: linePreviousMin,
                                    current: lineSlots + lineTarget * slot, p2: p2Table[step])
                n += 1
            }
            fusedStep(costs + x * dv, steps, n, lowest, sumRow.map { $0 + x * dv })
            for i in 0..<k { curMins[i][x + 1] = hmin(lowest[i]) }
            if leftToRight {
                linePreviousMin = hmin(lowest[k])
                linePrevious = UnsafePointer(lineSlots + lineTarget * slot)
                lineTarget = 3 - lineTarget
            }
        }
        current = 1 - current
    }

    /// Winner-take-all for one finished row of S: uniqueness, sub-pixel fit, left-right check.
    /// Overwrites the row's impossible disparities (beyond the image's left edge, SIMD padding) with Int16.max.
    private func decide(_ y: Int, _ sumRow: UnsafeMutablePointer<Int16>, _ out: UnsafeMutablePointer<Float>,
                        _ rightBest: UnsafeMutablePointer<Int16>, _ rightIndex: UnsafeMutablePointer<Int16>,
                        _ bestIndex: UnsafeMutablePointer<Int32>) {
        let w = width, dv = paddedCount
        let rightCount = w + minDisparity + dv + Self.lanes
        rightBest.update(repeating: .max, count: rightCount)
        rightIndex.update(repeating: -1, count: rightCount)
        var lanes = V()
        for i in 0..<Self.lanes { lanes[i] = Int16(i) }
        bestIndex.update(repeating: -1, count: w)
        for x in 0..<w {
            let valid = min(count, x - minDisparity + 1)
            guard valid > 0 else { out[x] = .nan; continue }
            let s = sumRow + x * dv
            if valid < dv { (s + valid).update(repeating: .max, count: dv - valid) }
            let raw = UnsafeRawPointer(s)
            var lowest = V(repeating: .max)
            var d = 0
            while d < dv { lowest = vmin(lowest, raw.loadUnaligned(fromByteOffset: d * 2, as: V.self)); d += Self.lanes }
            let bestValue = hmin(lowest)
            var best = 0
            while s[best] != bestValue { best += 1 }
            // The right view's winner from the same sums: right pixel x − minDisparity − d.
            // (Impossible disparities hold Int16.max and never win.)
            let rb = UnsafeMutableRawPointer(rightBest + (w - 1 - x + minDisparity))
            let ri = UnsafeMutableRawPointer(rightIndex + (w - 1 - x + minDisparity))
            d = 0
            while d < dv {
                let sv = raw.loadUnaligned(fromByteOffset: d * 2, as: V.self)
                let bv = rb.loadUnaligned(fromByteOffset: d * 2, as: V.self)
                let better = (sv &- bv) &>> 15   // all ones where sv < bv
                rb.storeBytes(of: vmin(sv, bv), toByteOffset: d * 2, as: V.self)
                let iv = ri.loadUnaligned(fromByteOffset: d * 2, as: V.self)
                ri.storeBytes(of: ((lanes &+ V(repeating: Int16(d))) & better) | (iv & ~better), toByteOffset: d * 2, as: V.self)
                d += Self.lanes
            }
            if uniqueness > 0 {
                let lo = max(0, best - 1), hi = min(dv - 1, best + 1)
                let saved = (s[lo], s[best], s[hi])
                s[lo] = .max; s[best] = .max; s[hi] = .max
                var rest = V(repeating: .max)
                d = 0
                while d < dv { rest = vmin(rest, raw.loadUnaligned(fromByteOffset: d * 2, as: V.self)); d += Self.lanes }
                (s[lo], s[best], s[hi]) = saved
                if Float(hmin(rest)) * (1 - uniqueness) <= Float(bestValue) { out[x] = .nan; continue }
            }
            var offset: Float = 0
            if best > 0 && best < valid - 1 {
                let a = Float(s[best - 1]), b = Float(bestValue), c = Float(s[best + 1])
                switch subpixel {
                case .none: break
                case .parabola:
                    let curvature = a + c - 2 * b
                    if curvature > 0 { offset = (a - c) / (2 * curvature) }
                case .equiangular:
                    let slope = max(a - b, c - b)
                    if slope > 0 { offset = (a - c) / (2 * slope) }
                }
            }
            bestIndex[x] = Int32(best)
            out[x] = Float(minDisparity + best) + offset
        }
        guard let tolerance = lrTolerance else { return }
        for x in 0..<w where bestIndex[x] >= 0 {
            let xr = x - minDisparity - Int(bestIndex[x])
            if abs(Int(rightIndex[w - 1 - xr]) - Int(bestIndex[x])) > tolerance { out[x] = .nan }
        }
    }
}

/// Lane-wise minimum by arithmetic (|a − b| < 2^15 here): the compiler keeps it in vector registers,
/// where SIMD comparisons and `pointwiseMin` fell back to lane-by-lane code in this loop.
@inline(__always)
func vmin(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD16<Int16> {
    let d = a &- b
    return b &+ (d & (d &>> 15))
}

@inline(__always)
func vmin(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    let d = a &- b
    return b &+ (d & (d &>> 15))
}

/// The smallest lane.
@inline(__always)
func hmin(_ v: SIMD16<Int16>) -> Int16 {
    let h8 = vmin(v.lowHalf, v.highHalf)
    var m = h8[0]
    for i in 1..<8 { m = min(m, h8[i]) }
    return m
}
