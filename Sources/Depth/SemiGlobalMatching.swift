import CaptureCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Census-cost semi-global matching with the left image as reference (Hirschmüller 2008, with the
/// census cost and the band/SIMD layout of Spangenberg et al. 2014).
///
/// Memory stays bounded: costs are computed pixel by pixel from the census codes (never stored);
/// the top-down pass (L→R and the paths from above) stores its sum S for the core rows of one row
/// band per worker (UInt8 when it provably fits, else Int16, W × D per row); the bottom-up pass
/// (R→L and the paths from below) adds to it pixel by pixel and decides each pixel at once.
/// Vertical and diagonal paths enter a band from `margin` rows above and below, so bands run
/// independently on all cores; the cut depends on the image and parameters only, never on the
/// machine, so results are the same everywhere.
///
/// Speed (SSE2, the baseline x86-64 target): the hot loops are small out-of-line kernels on raw
/// pointers whose SIMD16<Int16> minima compile to `pminsw`; everything that would stream through
/// the caches twice (a cost row, the final S, a second vertical path row) is gone.
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
    /// S of the top-down pass kept as UInt8: exact when its two paths (4-path mode) each stay within
    /// census cost + P2 ≤ 31 + 96, so 2 · 127 ≤ 255 for every disparity that is ever decided.
    /// Halves the band memory and its traffic (the band cut stays the one of Int16 sums).
    var narrowSums: Bool

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
        narrowSums = !eightPaths && 2 * (31 + Int(p2Table.max() ?? .max)) <= 255
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
                        let pool = Locked<[UnsafeMutableRawPointer]>([])
                        let capacity = bandRows * width * paddedCount * (narrowSums ? 1 : 2)
                        // Each band writes only its own core rows of `out`.
                        Parallel.forEachBand(height: height, bandHeight: bandRows) { rows in
                            let sums = pool.withLock { $0.popLast() } ?? Self.allocateLarge(capacity)
                            band(rows, sums, lc.baseAddress!, rc.baseAddress!, luma.baseAddress!, out.baseAddress!)
                            pool.withLock { $0.append(sums) }
                        }
                        for buffer in pool.wrappedValue { free(buffer) }
                    }
                }
            }
        }
        return output
    }

    /// `bytes` for a band's S (release with `free`), on 2 MB boundaries and marked for huge pages
    /// where the system has them: a band's S is tens of megabytes written once and read once, and
    /// 4 kB pages would cost one page fault and TLB miss per 4 kB of it.
    static func allocateLarge(_ bytes: Int) -> UnsafeMutableRawPointer {
        var memory: UnsafeMutableRawPointer?
        if posix_memalign(&memory, 2 << 20, bytes) != 0 { memory = malloc(bytes) }
        guard let memory else { fatalError("SemiGlobalMatching: out of memory for \(bytes) bytes of path sums") }
        #if os(Linux)
        _ = madvise(memory, bytes, MADV_HUGEPAGE)
        #endif
        return memory
    }

    // MARK: - One band

    private func band(_ core: Range<Int>, _ sums: UnsafeMutableRawPointer, _ leftCodes: UnsafePointer<UInt32>, _ rightCodes: UnsafePointer<UInt32>,
                      _ luma: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<Float>) {
        let w = width, dv = paddedCount, slot = slot
        let sumBytes = narrowSums ? 1 : 2
        let rowBytes = w * dv * sumBytes
        let top = max(0, core.lowerBound - margin), bottom = min(height, core.upperBound + margin)

        // One pixel's costs, rebuilt from the census codes for every pixel of both passes: they stay in
        // L1 where a cost row (W × D) would stream through the caches twice.
        let cost = UnsafeMutablePointer<Int16>.allocate(capacity: dv)
        cost.initialize(repeating: 0, count: dv)
        // One pixel's complete S in the bottom-up pass: decided at once, never written back to the band.
        let pixelSum = UnsafeMutablePointer<Int16>.allocate(capacity: dv)
        pixelSum.initialize(repeating: 0, count: dv)
        // The right row's census codes right to left, split in 16-bit halves (so the Hamming distance
        // runs on 16-bit lanes), padded for whole SIMD loads.
        let reversedCount = w + minDisparity + dv + Self.lanes
        let reversedLow = UnsafeMutablePointer<UInt16>.allocate(capacity: reversedCount)
        let reversedHigh = UnsafeMutablePointer<UInt16>.allocate(capacity: reversedCount)
        reversedLow.initialize(repeating: 0, count: reversedCount)
        reversedHigh.initialize(repeating: 0, count: reversedCount)
        // Three row-to-row paths × two rows (previous, current) × (w + 2) slots; slots 0 and w + 1 stay zero.
        let rowSlots = (w + 2) * slot
        let pathRows = UnsafeMutablePointer<Int16>.allocate(capacity: 6 * rowSlots)
        let pathMins = UnsafeMutablePointer<Int16>.allocate(capacity: 6 * (w + 2))
        // The horizontal path of a row: a zero slot and two alternating slots.
        let lineSlots = UnsafeMutablePointer<Int16>.allocate(capacity: 3 * slot)
        let steps = UnsafeMutablePointer<PathStep>.allocate(capacity: 4)
        // The right view's best S and disparity, stored right to left (index w − 1 − xr) so that one
        // left pixel's disparities touch consecutive entries; padded for whole SIMD loads.
        let rightCount = w + minDisparity + dv + Self.lanes
        let rightBest = UnsafeMutablePointer<Int16>.allocate(capacity: rightCount)
        let rightIndex = UnsafeMutablePointer<Int16>.allocate(capacity: rightCount)
        let bestIndex = UnsafeMutablePointer<Int32>.allocate(capacity: w)
        rightBest.initialize(repeating: 0, count: rightCount)
        rightIndex.initialize(repeating: 0, count: rightCount)
        bestIndex.initialize(repeating: 0, count: w)
        defer {
            steps.deallocate(); cost.deallocate(); pixelSum.deallocate()
            reversedLow.deallocate(); reversedHigh.deallocate()
            pathRows.deallocate(); pathMins.deallocate(); lineSlots.deallocate()
            rightBest.deallocate(); rightIndex.deallocate(); bestIndex.deallocate()
        }
        func resetSlots(_ p: UnsafeMutablePointer<Int16>, slots: Int) {
            p.initialize(repeating: 0, count: slots * slot)
            for s in 0..<slots {
                for g in 0..<8 { p[s * slot + g] = Self.guardValue; p[s * slot + 8 + dv + g] = Self.guardValue }
            }
        }
        resetSlots(lineSlots, slots: 3)
        var lanes = V()
        for i in 0..<Self.lanes { lanes[i] = Int16(i) }

        // The paths between rows: the horizontal step of each (−1 and 1 are the diagonals).
        let dxs: [Int] = eightPaths ? [-1, 0, 1] : [0]
        let k = dxs.count
        var current = 0

        /// Row `y`'s row-to-row paths from row `y ∓ 1` (all of them) and, in core rows, its horizontal
        /// path: top-down runs left to right and stores S, bottom-up runs right to left, adds to S and
        /// decides each pixel once its S is complete.
        func row(_ y: Int, downward: Bool, first: Bool) {
            let inCore = core.contains(y)
            let r = rightCodes + y * w
            for j in 0..<w {
                let c = r[w - 1 - j]
                reversedLow[j] = UInt16(truncatingIfNeeded: c)
                reversedHigh[j] = UInt16(truncatingIfNeeded: c >> 16)
            }
            let codes = leftCodes + y * w
            let lumaRow = luma + y * w
            let lumaFrom = luma + (first ? y : (downward ? y - 1 : y + 1)) * w
            let sumRow = sums + (inCore ? (y - core.lowerBound) * rowBytes : 0)
            let outRow = out + y * w
            // The vertical path alone (4 paths) updates one row of slots in place: slot x is read and
            // rewritten by pixel x only, and half the buffer stays in the caches.
            let inPlace = k == 1
            let prevRow = pathRows + (inPlace ? 0 : 1 - current) * rowSlots, curRow = pathRows + (inPlace ? 0 : current) * rowSlots
            let prevMin = pathMins + (inPlace ? 0 : 1 - current) * (w + 2), curMin = pathMins + (inPlace ? 0 : current) * (w + 2)
            var line = PathStep(previous: UnsafePointer(lineSlots), previousMin: 0, current: lineSlots + slot, p2: 0)
            var lineTarget = 1
            if inCore && !downward {
                rightBest.update(repeating: .max, count: rightCount)
                rightIndex.update(repeating: -1, count: rightCount)
                bestIndex.update(repeating: -1, count: w)
            }
            let dx = downward ? -1 : 1   // towards the horizontal path's previous pixel
            var x = downward ? 0 : w - 1
            for _ in 0..<w {
                pixelCosts(x, codes[x], reversedLow, reversedHigh, cost)
                if inCore {
                    line.current = lineSlots + lineTarget * slot
                    line.p2 = p2Table[Int(abs(Int16(lumaRow[x]) - Int16(lumaRow[min(w - 1, max(0, x + dx))])))]
                }
                if k == 1 {
                    let vertical = PathStep(previous: UnsafePointer(prevRow + (x + 1) * slot), previousMin: prevMin[x + 1],
                                            current: curRow + (x + 1) * slot,
                                            p2: p2Table[Int(abs(Int16(lumaRow[x]) - Int16(lumaFrom[x])))])
                    if inCore {
                        let sum = sumRow + x * dv * sumBytes
                        let (mv, ml) = switch (narrowSums, downward) {
                        case (true, true): Self.step2StoreNarrow(cost, vertical, line, sum, pixelSum, p1, dv)
                        case (true, false): Self.step2AddNarrow(cost, vertical, line, sum, pixelSum, p1, dv)
                        case (false, true): Self.step2Store(cost, vertical, line, sum, pixelSum, p1, dv)
                        case (false, false): Self.step2Add(cost, vertical, line, sum, pixelSum, p1, dv)
                        }
                        curMin[x + 1] = mv
                        line.previousMin = ml
                    } else {
                        curMin[x + 1] = Self.step1(cost, vertical, p1, dv)
                    }
                } else {
                    for i in 0..<k {
                        let source = x + dxs[i]   // the previous pixel's column; its slot is column + 1
                        let fromLuma = source >= 0 && source < w ? lumaFrom[source] : lumaRow[x]
                        steps[i] = PathStep(previous: UnsafePointer(prevRow + 2 * i * rowSlots + (source + 1) * slot),
                                            previousMin: prevMin[2 * i * (w + 2) + source + 1],
                                            current: curRow + 2 * i * rowSlots + (x + 1) * slot,
                                            p2: p2Table[Int(abs(Int16(lumaRow[x]) - Int16(fromLuma)))])
                    }
                    let m: (Int16, Int16, Int16, Int16)
                    if inCore {
                        let sum = (sumRow + x * dv * 2).assumingMemoryBound(to: Int16.self)
                        m = downward ? Self.step4Store(cost, steps[0], steps[1], steps[2], line, sum, pixelSum, p1, dv)
                                     : Self.step4Add(cost, steps[0], steps[1], steps[2], line, sum, pixelSum, p1, dv)
                        line.previousMin = m.3
                    } else {
                        m = Self.step3(cost, steps[0], steps[1], steps[2], p1, dv)
                    }
                    curMin[x + 1] = m.0
                    curMin[2 * (w + 2) + x + 1] = m.1
                    curMin[4 * (w + 2) + x + 1] = m.2
                }
                if inCore {
                    line.previous = UnsafePointer(line.current)
                    lineTarget = 3 - lineTarget
                    if !downward { decide(x, pixelSum, outRow, rightBest, rightIndex, bestIndex, lanes) }
                }
                x -= dx
            }
            current = 1 - current
            if inCore && !downward, let tolerance = lrTolerance {
                for x in 0..<w where bestIndex[x] >= 0 {
                    let xr = x - minDisparity - Int(bestIndex[x])
                    if abs(Int(rightIndex[w - 1 - xr]) - Int(bestIndex[x])) > tolerance { outRow[x] = .nan }
                }
            }
        }

        // Top-down pass: L→R and the paths from above; S of core rows = their sum.
        resetSlots(pathRows, slots: 6 * (w + 2))
        pathMins.initialize(repeating: 0, count: 6 * (w + 2))
        current = 0
        for y in top..<core.upperBound { row(y, downward: true, first: y == top) }
        // Bottom-up pass: R→L and the paths from below complete S; each finished pixel is decided.
        resetSlots(pathRows, slots: 6 * (w + 2))
        pathMins.initialize(repeating: 0, count: 6 * (w + 2))
        current = 0
        for y in stride(from: bottom - 1, through: core.lowerBound, by: -1) { row(y, downward: false, first: y == bottom - 1) }
    }

    /// Census Hamming distances of left pixel `x` (code `code`) to right pixels x − minDisparity − d,
    /// d in 0..<paddedCount, from the reversed right row's 16-bit halves. Disparities that leave the
    /// image repeat the last one inside it, so they neither attract nor repel the paths (a constant
    /// cost would bias flat regions towards the smallest disparities); the SIMD padding beyond
    /// `count` costs more than any match.
    @inline(__always)
    private func pixelCosts(_ x: Int, _ code: UInt32, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt16>,
                            _ cost: UnsafeMutablePointer<Int16>) {
        typealias U = SIMD16<UInt16>
        let cl = U(repeating: UInt16(truncatingIfNeeded: code)), ch = U(repeating: UInt16(truncatingIfNeeded: code >> 16))
        let base = (width - 1 - x + minDisparity) * 2
        let lo = UnsafeRawPointer(low), hi = UnsafeRawPointer(high), row = UnsafeMutableRawPointer(cost)
        var d = 0
        while d < paddedCount {
            var a = lo.loadUnaligned(fromByteOffset: base + d * 2, as: U.self) ^ cl
            var b = hi.loadUnaligned(fromByteOffset: base + d * 2, as: U.self) ^ ch
            a = a &- ((a &>> 1) & 0x5555)
            b = b &- ((b &>> 1) & 0x5555)
            a = (a & 0x3333) &+ ((a &>> 2) & 0x3333)
            b = (b & 0x3333) &+ ((b &>> 2) & 0x3333)
            var s = a &+ b                                // nibbles ≤ 8
            s = (s & 0x0F0F) &+ ((s &>> 4) & 0x0F0F)      // bytes ≤ 16
            s = (s & 0x00FF) &+ (s &>> 8)                 // ≤ 32
            row.storeBytes(of: unsafeBitCast(s, to: V.self), toByteOffset: d * 2, as: V.self)
            d += Self.lanes
        }
        let valid = max(0, min(count, x - minDisparity + 1))
        if valid < count {
            let edge = valid > 0 ? cost[valid - 1] : Self.invalidCost
            (cost + valid).update(repeating: edge, count: count - valid)
        }
        if count < paddedCount { (cost + count).update(repeating: Self.invalidCost, count: paddedCount - count) }
    }

    /// 16 values' low bytes in 16 bytes: lanes 0…7 in the low and 8…15 in the high byte of each
    /// 16-bit word (plain 16-bit vector operations, where a byte pack is an out-of-line call here).
    @inline(__always)
    static func narrowed(_ v: V) -> SIMD8<UInt16> {
        let low = SIMD8<UInt16>(truncatingIfNeeded: v.lowHalf), high = SIMD8<UInt16>(truncatingIfNeeded: v.highHalf)
        return (low & 0xFF) | (high &<< 8)
    }

    /// The inverse of `narrowed`.
    @inline(__always)
    static func widened(_ w: SIMD8<UInt16>) -> V {
        V(lowHalf: SIMD8<Int16>(truncatingIfNeeded: w & 0xFF), highHalf: SIMD8<Int16>(truncatingIfNeeded: w &>> 8))
    }

    /// One path's step at one pixel: where its previous L is, and where the new one goes.
    struct PathStep {
        var previous: UnsafePointer<Int16>
        var previousMin: Int16
        var current: UnsafeMutablePointer<Int16>
        var p2: Int16
    }

    /// One path's step at one pixel (a margin row: S untouched); returns min_d L(p).
    @inline(never)
    static func step1(_ cost: UnsafePointer<Int16>, _ a: PathStep, _ p1: Int16, _ paddedCount: Int) -> Int16 {
        let vp1 = V(repeating: p1)
        let jump = V(repeating: a.previousMin &+ a.p2), floor = V(repeating: a.previousMin)
        let c = UnsafeRawPointer(cost), previous = UnsafeRawPointer(a.previous), current = UnsafeMutableRawPointer(a.current)
        var low = V(repeating: .max)
        // Each block is stored after the next one has read its neighbours, so `current` may be
        // `previous` (the vertical path updates its row in place).
        var pending = V()
        var d = 0
        while d < paddedCount {
            let same = previous.loadUnaligned(fromByteOffset: (8 + d) * 2, as: V.self)
            let below = previous.loadUnaligned(fromByteOffset: (7 + d) * 2, as: V.self)
            let above = previous.loadUnaligned(fromByteOffset: (9 + d) * 2, as: V.self)
            let l = c.loadUnaligned(fromByteOffset: d * 2, as: V.self) &+ pmin(pmin(same, pmin(below, above) &+ vp1), jump) &- floor
            if d > 0 { current.storeBytes(of: pending, toByteOffset: (8 + d - lanes) * 2, as: V.self) }
            pending = l
            low = pmin(low, l)
            d += lanes
        }
        current.storeBytes(of: pending, toByteOffset: (8 + paddedCount - lanes) * 2, as: V.self)
        return hmin(low)
    }

    /// Two paths' steps at one pixel in one pass over the disparities; their sum is stored in `sum`
    /// (or, with `add`, added to `sum` and written to `total`); `sum` holds Int16, or UInt8 when
    /// `narrow`. Returns both paths' min_d L(p). One small out-of-line function per (add, narrow)
    /// below, so each is compiled with its flags folded and `pmin` inlined.
    @inline(__always)
    static func step2(_ cost: UnsafePointer<Int16>, _ a: PathStep, _ b: PathStep, _ sum: UnsafeMutableRawPointer,
                      _ totalOut: UnsafeMutablePointer<Int16>, _ p1: Int16, _ paddedCount: Int,
                      add: Bool, narrow: Bool) -> (Int16, Int16) {
        let vp1 = V(repeating: p1)
        let jumpA = V(repeating: a.previousMin &+ a.p2), floorA = V(repeating: a.previousMin)
        let jumpB = V(repeating: b.previousMin &+ b.p2), floorB = V(repeating: b.previousMin)
        let c = UnsafeRawPointer(cost), s = sum, t = UnsafeMutableRawPointer(totalOut)
        let previousA = UnsafeRawPointer(a.previous), currentA = UnsafeMutableRawPointer(a.current)
        let previousB = UnsafeRawPointer(b.previous), currentB = UnsafeMutableRawPointer(b.current)
        var lowA = V(repeating: .max), lowB = V(repeating: .max)
        // Path a's blocks are stored one block late, so `a.current` may be `a.previous` (in place).
        var pendingA = V()
        var d = 0
        while d < paddedCount {
            let cv = c.loadUnaligned(fromByteOffset: d * 2, as: V.self)
            // L(p, d) = C(p, d) + min(L(p−r, d), L(p−r, d±1) + P1, min L(p−r) + P2) − min L(p−r), both paths.
            let sameA = previousA.loadUnaligned(fromByteOffset: (8 + d) * 2, as: V.self)
            let belowA = previousA.loadUnaligned(fromByteOffset: (7 + d) * 2, as: V.self)
            let aboveA = previousA.loadUnaligned(fromByteOffset: (9 + d) * 2, as: V.self)
            let la = cv &+ pmin(pmin(sameA, pmin(belowA, aboveA) &+ vp1), jumpA) &- floorA
            let sameB = previousB.loadUnaligned(fromByteOffset: (8 + d) * 2, as: V.self)
            let belowB = previousB.loadUnaligned(fromByteOffset: (7 + d) * 2, as: V.self)
            let aboveB = previousB.loadUnaligned(fromByteOffset: (9 + d) * 2, as: V.self)
            let lb = cv &+ pmin(pmin(sameB, pmin(belowB, aboveB) &+ vp1), jumpB) &- floorB
            if d > 0 { currentA.storeBytes(of: pendingA, toByteOffset: (8 + d - lanes) * 2, as: V.self) }
            pendingA = la
            currentB.storeBytes(of: lb, toByteOffset: (8 + d) * 2, as: V.self)
            lowA = pmin(lowA, la)
            lowB = pmin(lowB, lb)
            var total = la &+ lb
            if add {
                total &+= narrow ? widened(s.loadUnaligned(fromByteOffset: d, as: SIMD8<UInt16>.self))
                                 : s.loadUnaligned(fromByteOffset: d * 2, as: V.self)
                t.storeBytes(of: total, toByteOffset: d * 2, as: V.self)
            } else if narrow {
                s.storeBytes(of: narrowed(total), toByteOffset: d, as: SIMD8<UInt16>.self)
            } else {
                s.storeBytes(of: total, toByteOffset: d * 2, as: V.self)
            }
            d += lanes
        }
        currentA.storeBytes(of: pendingA, toByteOffset: (8 + paddedCount - lanes) * 2, as: V.self)
        return (hmin(lowA), hmin(lowB))
    }

    @inline(never)
    static func step2StoreNarrow(_ cost: UnsafePointer<Int16>, _ a: PathStep, _ b: PathStep, _ sum: UnsafeMutableRawPointer,
                                 _ total: UnsafeMutablePointer<Int16>, _ p1: Int16, _ paddedCount: Int) -> (Int16, Int16) {
        step2(cost, a, b, sum, total, p1, paddedCount, add: false, narrow: true)
    }

    @inline(never)
    static func step2AddNarrow(_ cost: UnsafePointer<Int16>, _ a: PathStep, _ b: PathStep, _ sum: UnsafeMutableRawPointer,
                               _ total: UnsafeMutablePointer<Int16>, _ p1: Int16, _ paddedCount: Int) -> (Int16, Int16) {
        step2(cost, a, b, sum, total, p1, paddedCount, add: true, narrow: true)
    }

    @inline(never)
    static func step2Store(_ cost: UnsafePointer<Int16>, _ a: PathStep, _ b: PathStep, _ sum: UnsafeMutableRawPointer,
                           _ total: UnsafeMutablePointer<Int16>, _ p1: Int16, _ paddedCount: Int) -> (Int16, Int16) {
        step2(cost, a, b, sum, total, p1, paddedCount, add: false, narrow: false)
    }

    @inline(never)
    static func step2Add(_ cost: UnsafePointer<Int16>, _ a: PathStep, _ b: PathStep, _ sum: UnsafeMutableRawPointer,
                         _ total: UnsafeMutablePointer<Int16>, _ p1: Int16, _ paddedCount: Int) -> (Int16, Int16) {
        step2(cost, a, b, sum, total, p1, paddedCount, add: true, narrow: false)
    }

    /// Eight-path mode's steps at one pixel: the three paths from the row above or below and, with
    /// `four`, the row's horizontal path, in one pass over the disparities. With `four` their sum
    /// is stored in `sum` (with `add`, added to `sum` and written to `totalOut`). Returns each
    /// path's min_d L(p). Specialised by the small out-of-line functions below.
    @inline(__always)
    static func stepPaths(_ cost: UnsafePointer<Int16>, _ s0: PathStep, _ s1: PathStep, _ s2: PathStep, _ s3: PathStep,
                          four: Bool, _ sum: UnsafeMutablePointer<Int16>, _ totalOut: UnsafeMutablePointer<Int16>,
                          _ p1: Int16, _ paddedCount: Int, add: Bool) -> (Int16, Int16, Int16, Int16) {
        let vp1 = V(repeating: p1), c = UnsafeRawPointer(cost)
        @inline(__always) func values(_ cv: V, _ step: PathStep, _ d: Int) -> V {
            let previous = UnsafeRawPointer(step.previous)
            let same = previous.loadUnaligned(fromByteOffset: (8 + d) * 2, as: V.self)
            let below = previous.loadUnaligned(fromByteOffset: (7 + d) * 2, as: V.self)
            let above = previous.loadUnaligned(fromByteOffset: (9 + d) * 2, as: V.self)
            let l = cv &+ pmin(pmin(same, pmin(below, above) &+ vp1), V(repeating: step.previousMin &+ step.p2))
                &- V(repeating: step.previousMin)
            UnsafeMutableRawPointer(step.current).storeBytes(of: l, toByteOffset: (8 + d) * 2, as: V.self)
            return l
        }
        var low0 = V(repeating: .max), low1 = low0, low2 = low0, low3 = low0
        var d = 0
        while d < paddedCount {
            let cv = c.loadUnaligned(fromByteOffset: d * 2, as: V.self)
            let l0 = values(cv, s0, d), l1 = values(cv, s1, d), l2 = values(cv, s2, d)
            low0 = pmin(low0, l0); low1 = pmin(low1, l1); low2 = pmin(low2, l2)
            if four {
                let l3 = values(cv, s3, d)
                low3 = pmin(low3, l3)
                var total = l0 &+ l1 &+ l2 &+ l3
                let sv = UnsafeMutableRawPointer(sum)
                if add {
                    total &+= sv.loadUnaligned(fromByteOffset: d * 2, as: V.self)
                    UnsafeMutableRawPointer(totalOut).storeBytes(of: total, toByteOffset: d * 2, as: V.self)
                } else {
                    sv.storeBytes(of: total, toByteOffset: d * 2, as: V.self)
                }
            }
            d += lanes
        }
        return (hmin(low0), hmin(low1), hmin(low2), four ? hmin(low3) : 0)
    }

    @inline(never)
    static func step3(_ cost: UnsafePointer<Int16>, _ s0: PathStep, _ s1: PathStep, _ s2: PathStep,
                      _ p1: Int16, _ paddedCount: Int) -> (Int16, Int16, Int16, Int16) {
        stepPaths(cost, s0, s1, s2, s2, four: false, UnsafeMutablePointer(mutating: s0.previous),
                  UnsafeMutablePointer(mutating: s0.previous), p1, paddedCount, add: false)
    }

    @inline(never)
    static func step4Store(_ cost: UnsafePointer<Int16>, _ s0: PathStep, _ s1: PathStep, _ s2: PathStep, _ s3: PathStep,
                           _ sum: UnsafeMutablePointer<Int16>, _ total: UnsafeMutablePointer<Int16>,
                           _ p1: Int16, _ paddedCount: Int) -> (Int16, Int16, Int16, Int16) {
        stepPaths(cost, s0, s1, s2, s3, four: true, sum, total, p1, paddedCount, add: false)
    }

    @inline(never)
    static func step4Add(_ cost: UnsafePointer<Int16>, _ s0: PathStep, _ s1: PathStep, _ s2: PathStep, _ s3: PathStep,
                         _ sum: UnsafeMutablePointer<Int16>, _ total: UnsafeMutablePointer<Int16>,
                         _ p1: Int16, _ paddedCount: Int) -> (Int16, Int16, Int16, Int16) {
        stepPaths(cost, s0, s1, s2, s3, four: true, sum, total, p1, paddedCount, add: true)
    }

    /// Winner-take-all for one pixel whose S is complete: uniqueness, sub-pixel fit, and its share of
    /// the right view's winners (for the left-right check once the row is done). Pixels come right
    /// to left, so a tie for a right pixel goes to the leftmost left pixel. Overwrites the pixel's
    /// impossible disparities (beyond the image's left edge, SIMD padding) with Int16.max.
    @inline(__always)
    private func decide(_ x: Int, _ s: UnsafeMutablePointer<Int16>, _ out: UnsafeMutablePointer<Float>,
                        _ rightBest: UnsafeMutablePointer<Int16>, _ rightIndex: UnsafeMutablePointer<Int16>,
                        _ bestIndex: UnsafeMutablePointer<Int32>, _ lanes: V) {
        let w = width, dv = paddedCount
        let valid = min(count, x - minDisparity + 1)
        guard valid > 0 else { out[x] = .nan; return }
        if valid < dv { (s + valid).update(repeating: .max, count: dv - valid) }
        let raw = UnsafeRawPointer(s)
        // Each lane's minimum and the first disparity that reaches it (the winner is the first
        // disparity with the smallest S), and in the same pass the right view's winners from these
        // sums: right pixel x − minDisparity − d. (Impossible disparities hold Int16.max and never win.)
        let rb = UnsafeMutableRawPointer(rightBest + (w - 1 - x + minDisparity))
        let ri = UnsafeMutableRawPointer(rightIndex + (w - 1 - x + minDisparity))
        var lowest = V(repeating: .max), lowestIndex = V()
        var d = 0
        while d < dv {
            let sv = raw.loadUnaligned(fromByteOffset: d * 2, as: V.self)
            let index = lanes &+ V(repeating: Int16(d))
            let better = (sv &- lowest) &>> 15   // all ones where sv < lowest
            lowestIndex = (index & better) | (lowestIndex & ~better)
            lowest = pmin(lowest, sv)
            let bv = rb.loadUnaligned(fromByteOffset: d * 2, as: V.self)
            let right = (sv &- bv &- 1) &>> 15   // all ones where sv ≤ bv (both in 0…Int16.max)
            rb.storeBytes(of: pmin(sv, bv), toByteOffset: d * 2, as: V.self)
            let iv = ri.loadUnaligned(fromByteOffset: d * 2, as: V.self)
            ri.storeBytes(of: (index & right) | (iv & ~right), toByteOffset: d * 2, as: V.self)
            d += Self.lanes
        }
        let bestValue = hmin(lowest)
        let atBest = (lowest &- V(repeating: bestValue) &- 1) &>> 15   // all ones where lowest == bestValue
        let best = Int(hmin((lowestIndex & atBest) | (V(repeating: .max) & ~atBest)))
        if uniqueness > 0 {
            // The smallest S away from the winner (|d − best| > 1): the winner and its neighbours
            // read as Int16.max (S ≥ 0, so OR-ing 0x7FFF gives it), without writing S.
            var rest = V(repeating: .max)
            let bestV = V(repeating: Int16(best))
            d = 0
            while d < dv {
                let offset = lanes &+ V(repeating: Int16(d)) &- bestV
                let near = ((offset &- 2) &>> 15) & ~((offset &+ 1) &>> 15)   // all ones where −1 ≤ offset ≤ 1
                rest = pmin(rest, raw.loadUnaligned(fromByteOffset: d * 2, as: V.self) | (near & V(repeating: .max)))
                d += Self.lanes
            }
            if Float(hmin(rest)) * (1 - uniqueness) <= Float(bestValue) { out[x] = .nan; return }
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

/// Lane-wise minimum written lane by lane, which LLVM turns into single `pminsw` instructions
/// (two fewer per use than `vmin`); used in the small out-of-line path kernels only, as its longer
/// source changes the inliner's decisions in large functions.
@inline(__always)
func pmin(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD16<Int16> {
    var r = a
    for i in 0..<16 { r[i] = Swift.min(a[i], b[i]) }
    return r
}

/// The smallest lane.
@inline(__always)
func hmin(_ v: SIMD16<Int16>) -> Int16 {
    let h8 = vmin(v.lowHalf, v.highHalf)
    var m = h8[0]
    for i in 1..<8 { m = min(m, h8[i]) }
    return m
}
