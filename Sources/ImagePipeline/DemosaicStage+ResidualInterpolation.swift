import CaptureCore

/// The default demosaic (`DemosaicMethod.residualInterpolation`), band by band.
///
/// **Green** (gradient-based threshold-free colour differences, after Pekkucuksen & Altunbasak's
/// GBTF, 2010): at every photosite a horizontal and a vertical colour difference Δ = G − C from
/// Hamilton-Adams estimates (the Laplacian term weighted 0.75, which suits low inter-channel
/// correlation); each missing green is C plus a blend of the four one-sided, 3-tap-smoothed
/// differences (west, east, north, south), weighted by 1 / (3×3 sum of that side's
/// colour-difference gradient)².
///
/// **Red and blue** (residual interpolation, after Kiku et al., 2013, on the quarter-resolution
/// lattice of each colour): on 3×3 lattice windows C ≈ a·G + b by least squares with a prior
/// pulling a towards 1 — a plain colour difference where the data is flat or noisy, a scaled one
/// where the channels correlate weakly; a is box-averaged, and C = a·G + b plus the bilinearly
/// interpolated residual (with a and b interpolated from the lattice, b cancels). At the colour's own sites the sample is kept exactly.
///
/// Tuned on Kodak24 and McMaster18 (8-bit, RGGB, scaled to 0…1): the constants below. The green
/// step reads 10 Bayer rows and columns around each output pixel, 10 + `guideMargin` rows with chromatic guides
/// (`ISPBand.bayerPad`).
extension DemosaicStage {
    /// Weight of the Laplacian correction in the directional green estimates (Hamilton-Adams: 1).
    static let laplacianWeight: Float = 0.75
    /// One-sided smoothing of the colour differences, nearest first.
    static let sideTaps: (Float, Float, Float) = (0.6, 0.3, 0.1)
    /// Keeps the gradient weights finite on perfectly flat data (0…1 scale).
    static let gradientFloor: Float = 1.5e-15
    /// Prior variance pulling the residual-interpolation slope a towards 1 (0…1 scale: 100 / 255²).
    static let slopePrior: Float = 100.0 / 65025.0

    /// Rows of green a chromatic guide reads beyond its own rows: the lens moves a colour by up to `guideReach` pixels,
    /// and a bilinear read takes the row below too. Green is made that much further up and down when there are guides,
    /// so a guide row never reads a row its band lacks (a clamped read there showed the bands' seams).
    static let guideMargin = Int(guideReach.rounded(.up)) + 1

    /// Floats of band scratch memory the method needs for bands of up to `rows` RGB rows.
    static func residualInterpolationScratch(planeStride: Int, rows: Int) -> Int {
        // Seven planes of rows + 10 … rows + 16 (each 2 · guideMargin more with chromatic guides), the guide's rows + 10.
        let full = (8 * rows + 96 + 14 * guideMargin) * (planeStride + 48)
        let lattice = ((rows + 2) / 2 + 6) * ((planeStride + 2) / 2 + 6)
        let latticeColumns = (planeStride + 2) / 2 + 6
        return full + 8 * lattice + 2 * (planeStride + 8) + 2 * latticeColumns + 4
    }

    func runResidualInterpolation(_ band: ISPBand) {
        let w = band.width, pad = ISPBand.bayerPad
        let y0 = band.rows.lowerBound, y1 = band.rows.upperBound, n = y1 - y0
        // With chromatic guides, green is made `guideMargin` rows further up and down (`e`), and everything before it too.
        let e = chromaticGuides.contains { $0 != nil } ? Self.guideMargin : 0
        precondition(pad >= 10 + e, "residual interpolation needs 10 rows of Bayer context (and the guides' margin)")
        // Full-resolution scratch rows: column x at offset `origin + x`, valid for x in −16 ..< planeStride + 32.
        let stride = band.planeStride + 48, origin = 16
        // Row ranges (image rows): ΔV y0−8 ..< y1+8, ΔH y0−6 ..< y1+6, horizontal gradient sums
        // y0−7 ..< y1+7 (V) and y0−6 ..< y1+6 (H), inverse weights y0−6 ..< y1+6 (V) and y0−5 ..< y1+5 (H),
        // green y0−5 ..< y1+5.
        let rowsDV = n + 16 + 2 * e, rowsDH = n + 12 + 2 * e, rowsSV = n + 14 + 2 * e, rowsSH = n + 12 + 2 * e
        let rowsIV = n + 12 + 2 * e, rowsIH = n + 10 + 2 * e, rowsG = n + 10 + 2 * e
        var next = band.scratch
        func plane(_ rows: Int, firstRow: Int) -> (Int) -> UnsafeMutablePointer<Float> {
            let base = next
            next += rows * stride
            return { y in base + (y - firstRow) * stride + origin }
        }
        let dV = plane(rowsDV, firstRow: y0 - 8 - e), dH = plane(rowsDH, firstRow: y0 - 6 - e)
        let sV = plane(rowsSV, firstRow: y0 - 7 - e), sH = plane(rowsSH, firstRow: y0 - 6 - e)
        let iV = plane(rowsIV, firstRow: y0 - 6 - e), iH = plane(rowsIH, firstRow: y0 - 5 - e)
        let green = plane(rowsG, firstRow: y0 - 5 - e)
        @inline(__always) func bayer(_ y: Int) -> UnsafePointer<Float> { UnsafePointer(band.bayerRow(y - y0 + pad)) }

        typealias V = SIMD8<Float>
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        @inline(__always) func load(_ p: UnsafeMutablePointer<Float>) -> V { load(UnsafePointer(p)) }
        @inline(__always) func store(_ v: V, _ p: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
        }
        @inline(__always) func absolute(_ v: V) -> V { v.replacing(with: -v, where: v .< 0) }
        let even = SIMDMask<SIMD8<Int32>>([true, false, true, false, true, false, true, false])
        /// Lanes holding green in image row y (chunks start at even x).
        @inline(__always) func greenLanes(_ y: Int) -> SIMDMask<SIMD8<Int32>> {
            cfa.color(x: 0, y: y & 1) == 1 ? even : .!even
        }
        let s = band.bayerStride, s2 = 2 * s
        let lap = 0.25 * DemosaicStage.laplacianWeight
        let chunkEnd = { (margin: Int) in w + margin }

        // 1. Directional colour differences Δ = G − C (C estimated at green sites, G at the others).
        for y in (y0 - 8 - e)..<(y1 + 8 + e) {
            let m = bayer(y), gl = greenLanes(y)
            let sign = V(repeating: 1).replacing(with: -1, where: gl)
            let doH = y >= y0 - 6 - e && y < y1 + 6 + e
            let outV = dV(y), outH = doH ? dH(y) : outV
            var x = -8
            while x < chunkEnd(8) {
                let c = m + x, c0 = load(c)
                let vv = (load(c - s) + load(c + s)) * 0.5 + (2 * c0 - load(c - s2) - load(c + s2)) * lap
                store((vv - c0) * sign, outV + x)
                if doH {
                    let hh = (load(c - 1) + load(c + 1)) * 0.5 + (2 * c0 - load(c - 2) - load(c + 2)) * lap
                    store((hh - c0) * sign, outH + x)
                }
                x += 8
            }
        }
        // 2. Horizontal 3-sums of the colour-difference gradients |Δ(−1) − Δ(+1)| along each direction.
        for y in (y0 - 7 - e)..<(y1 + 7 + e) {
            let up = dV(y - 1), down = dV(y + 1), out = sV(y)
            var x = -8
            while x < chunkEnd(8) {
                let g = absolute(load(up + x - 1) - load(down + x - 1))
                    + absolute(load(up + x) - load(down + x)) + absolute(load(up + x + 1) - load(down + x + 1))
                store(g, out + x)
                x += 8
            }
            if y >= y0 - 6 - e && y < y1 + 6 + e {
                let d = dH(y), outH = sH(y)
                x = -8
                while x < chunkEnd(8) {
                    let a = load(d + x - 2), b = load(d + x - 1), c = load(d + x), e = load(d + x + 1), f = load(d + x + 2)
                    store(absolute(a - c) + absolute(b - e) + absolute(c - f), outH + x)
                    x += 8
                }
            }
        }
        // 3. Inverse squared 3×3 gradient sums.
        let floor = V(repeating: DemosaicStage.gradientFloor)
        for y in (y0 - 6 - e)..<(y1 + 6 + e) {
            let a = sV(y - 1), b = sV(y), c = sV(y + 1), out = iV(y)
            var x = -8
            while x < chunkEnd(8) {
                let t = load(a + x) + load(b + x) + load(c + x)
                store(1 / (t * t + floor), out + x)
                x += 8
            }
            if y >= y0 - 5 - e && y < y1 + 5 + e {
                let a = sH(y - 1), b = sH(y), c = sH(y + 1), out = iH(y)
                x = -8
                while x < chunkEnd(8) {
                    let t = load(a + x) + load(b + x) + load(c + x)
                    store(1 / (t * t + floor), out + x)
                    x += 8
                }
            }
        }
        // 4. Green: C plus the weighted one-sided colour differences.
        let (t0, t1, t2) = DemosaicStage.sideTaps
        for y in (y0 - 5 - e)..<(y1 + 5 + e) {
            let m = bayer(y), gl = greenLanes(y), out = green(y)
            let h = dH(y), vm2 = dV(y - 2), vm1 = dV(y - 1), v0 = dV(y), vp1 = dV(y + 1), vp2 = dV(y + 2)
            let ih = iH(y), ivUp = iV(y - 1), ivDown = iV(y + 1)
            var x = -8
            while x < chunkEnd(8) {
                let hc = load(h + x) * t0, vc = load(v0 + x) * t0
                let west = hc + load(h + x - 1) * t1 + load(h + x - 2) * t2
                let east = hc + load(h + x + 1) * t1 + load(h + x + 2) * t2
                let north = vc + load(vm1 + x) * t1 + load(vm2 + x) * t2
                let south = vc + load(vp1 + x) * t1 + load(vp2 + x) * t2
                let ww = load(ih + x - 1), we = load(ih + x + 1), wn = load(ivUp + x), ws = load(ivDown + x)
                let d = (ww * west + we * east + wn * north + ws * south) / (ww + we + wn + ws)
                let c0 = load(m + x)
                store((c0 + d).replacing(with: c0, where: gl), out + x)
                x += 8
            }
        }
        for y in band.rows { band.row(1, y).update(from: green(y), count: w) }

        // 5. Red and blue by residual interpolation on their own lattices.
        let guide = e > 0 ? plane(n + 10, firstRow: y0 - 5) : green
        for color in [0, 2] {
            if let knots = chromaticGuides[color] {
                fillGuide(guide, from: green, held: (y0 - 5 - e)..<(y1 + 5 + e), rows: (y0 - 5)..<(y1 + 5), width: w, knots: knots)
                residualInterpolation(band, color: color, green: guide, memory: next)
            } else {
                residualInterpolation(band, color: color, green: green, memory: next)
            }
        }
    }

    /// Green read at another plane's geometry for `rows`, from the rows `green` holds (`held`, `guideMargin` beyond
    /// `rows` each way: every read within them); the columns beyond the image are green's own.
    private func fillGuide(_ guide: (Int) -> UnsafeMutablePointer<Float>, from green: (Int) -> UnsafeMutablePointer<Float>,
                           held: Range<Int>, rows: Range<Int>, width w: Int, knots: RadialWarp.Knots) {
        let first = UnsafePointer(green(held.lowerBound)), stride = green(held.lowerBound + 1) - green(held.lowerBound)
        let rowLimits = 0...(Int32(held.count - 1) << 16 - 1), shift = Int32(held.lowerBound) << 16
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * knots.count) { memory in
            let kx = memory.baseAddress!, ky = kx + knots.count
            for y in rows {
                knots.fill(row: y, plane: 0, x: kx, y: ky)
                for k in 0..<knots.count { ky[k] &-= shift }
                let out = guide(y), own = green(y)
                PlanarWarpRow.resample(knotsX: kx, knotsY: ky, width: w, source: first, stride: stride,
                                       limitX: knots.limits.x, rowLimits: rowLimits, into: out)
                for x in -16..<0 { out[x] = own[x] }
                for x in w..<(stride - 16) { out[x] = own[x] }
            }
        }
    }

    /// Fills plane `color` (0 red, 2 blue) of `band.rows` from the Bayer samples and the full green.
    private func residualInterpolation(_ band: ISPBand, color: Int, green: (Int) -> UnsafeMutablePointer<Float>,
                                       memory: UnsafeMutablePointer<Float>) {
        let w = band.width, pad = ISPBand.bayerPad
        let y0 = band.rows.lowerBound, y1 = band.rows.upperBound
        // The colour's lattice: image pixels (px + 2j, py + 2i).
        var px = 0, py = 0
        for k in 0..<4 where cfa.colors[k] == color { py = k >> 1; px = k & 1 }
        @inline(__always) func floorDiv2(_ v: Int) -> Int { v >> 1 }
        // Output pixels need lattice points within one pixel: x in −1 … w, y in y0−1 … y1.
        let j0 = -floorDiv2(1 + px), j1 = floorDiv2(w - px) + 1           // [j0, j1)
        let i0 = -floorDiv2(-(y0 - 1 - py)), i1 = floorDiv2(y1 - py) + 1  // ceil, then [i0, i1)
        // Slopes and intercepts one lattice step further, statistics two.
        let cols = (j1 - j0) + 4, rows = (i1 - i0) + 4
        let jBase = j0 - 2, iBase = i0 - 2
        let count = cols * rows
        let gL = memory, cL = memory + count
        let sg = memory + 2 * count, sc = memory + 3 * count, sgg = memory + 4 * count, sgc = memory + 5 * count
        let aL = memory + 6 * count
        @inline(__always) func at(_ p: UnsafeMutablePointer<Float>, _ i: Int, _ j: Int) -> UnsafeMutablePointer<Float> {
            p + (i - iBase) * cols + (j - jBase)
        }
        // Gather G and C on the lattice.
        for i in iBase..<(iBase + rows) {
            let y = py + 2 * i
            let m = UnsafePointer(band.bayerRow(y - y0 + pad)), g = UnsafePointer(green(y))
            let gr = at(gL, i, jBase), cr = at(cL, i, jBase)
            for k in 0..<cols {
                let x = px + 2 * (jBase + k)
                gr[k] = g[x]
                cr[k] = m[x]
            }
        }
        // Horizontal 3-sums of G, C, G², GC (columns 1 ..< cols−1).
        for r in 0..<rows {
            let g = gL + r * cols, c = cL + r * cols
            let o0 = sg + r * cols, o1 = sc + r * cols, o2 = sgg + r * cols, o3 = sgc + r * cols
            for k in 1..<(cols - 1) {
                let ga = g[k - 1], gb = g[k], gc = g[k + 1], ca = c[k - 1], cb = c[k], cc = c[k + 1]
                o0[k] = ga + gb + gc
                o1[k] = ca + cb + cc
                o2[k] = ga * ga + gb * gb + gc * gc
                o3[k] = ga * ca + gb * cb + gc * cc
            }
        }
        // Vertical 3-sums → least-squares slope a, pulled towards 1 (rows, cols 1 ..< n−1). The
        // intercept cancels: C = ā·G + b̄ + interp(C − ā·G − b̄) with ā, b̄ interpolated from the lattice
        // is interp(ā)·G + interp(C − ā·G).
        let prior = DemosaicStage.slopePrior
        for r in 1..<(rows - 1) {
            let a = aL + r * cols
            let u = (r - 1) * cols, c = r * cols, d = (r + 1) * cols
            for k in 1..<(cols - 1) {
                let mg = (sg[u + k] + sg[c + k] + sg[d + k]) * (1 / 9)
                let mc = (sc[u + k] + sc[c + k] + sc[d + k]) * (1 / 9)
                let vg = (sgg[u + k] + sgg[c + k] + sgg[d + k]) * (1 / 9) - mg * mg
                let cv = (sgc[u + k] + sgc[c + k] + sgc[d + k]) * (1 / 9) - mg * mc
                a[k] = (cv + prior) / (vg + prior)
            }
        }
        // Box-average a (3×3) and keep the residual q = C − ā·G (rows, cols 2 ..< n−2). The
        // horizontal sums go to a statistics buffer, now free.
        let ha = sg
        for r in 1..<(rows - 1) {
            let a = aL + r * cols, oa = ha + r * cols
            for k in 2..<(cols - 2) { oa[k] = a[k - 1] + a[k] + a[k + 1] }
        }
        let abar = sgg, q = sgc
        for r in 2..<(rows - 2) {
            let u = (r - 1) * cols, c = r * cols, d = (r + 1) * cols
            for k in 2..<(cols - 2) {
                let sa = (ha[u + k] + ha[c + k] + ha[d + k]) * (1 / 9)
                abar[c + k] = sa
                q[c + k] = cL[c + k] - sa * gL[c + k]
            }
        }
        // Full resolution: C = interp(ā)·G + interp(q); the colour's own sites keep the sample. Per row,
        // first the lattice rows above and below are averaged (ca, cq), then spread over the pixels: a
        // lattice column's own pixel takes its value, the pixel between two columns their mean. The rows
        // are padded so the first and last lattice columns may land one pixel outside the image.
        let rowA = memory + 8 * count + 2, rowQ = rowA + (w + 8)
        let ca = rowQ + (w + 8), cq = ca + cols
        let n = j1 - j0
        for y in band.rows {
            let onRow = (y - py) & 1 == 0
            let iu = floorDiv2(y - py), id = onRow ? iu : iu + 1
            let au = at(abar, iu, j0), ad = at(abar, id, j0), qu = at(q, iu, j0), qd = at(q, id, j0)
            for k in 0..<n {
                ca[k] = (au[k] + ad[k]) * 0.5
                cq[k] = (qu[k] + qd[k]) * 0.5
            }
            var x = px + 2 * j0
            for k in 0..<(n - 1) {
                rowA[x] = ca[k]
                rowQ[x] = cq[k]
                rowA[x + 1] = (ca[k] + ca[k + 1]) * 0.5
                rowQ[x + 1] = (cq[k] + cq[k + 1]) * 0.5
                x += 2
            }
            rowA[x] = ca[n - 1]
            rowQ[x] = cq[n - 1]
            let g = green(y), out = band.row(color, y)
            for x in 0..<w { out[x] = rowA[x] * g[x] + rowQ[x] }
            if onRow {
                let m = band.bayerRow(y - y0 + pad)
                var x = px
                while x < w { out[x] = m[x]; x += 2 }
            }
        }
    }
}
