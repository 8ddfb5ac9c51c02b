import CaptureCore

/// Stage 2: Bayer samples → planar RGB for the band's rows.
///
/// Each row of a Bayer image holds one non-green colour C and green; the other non-green O sits
/// in the rows above and below. The kernels below are written for such a row and used for red
/// and blue rows alike by swapping the output planes.
struct DemosaicStage {
    let method: DemosaicMethod
    let cfa: CFAPattern
    /// Per plane (0 red, 2 blue), where to read green for that plane's geometry (`LensCorrection.greenAlignment`):
    /// residual interpolation then guides red and blue by green as they recorded the scene, not as green did.
    var chromaticGuides: [RadialWarp.Knots?] = [nil, nil, nil]
    /// How far (pixels) a guide may read green from where the plane recorded: the residual interpolation's green
    /// holds 5 rows beyond the ones it reads, so a lens whose planes part by more is demosaiced without guides.
    static let guideReach = 4.0

    /// Fills planes 0…2 (R, G, B) of `band.rows` from `band.bayer`.
    func run(_ band: ISPBand) {
        if method == .edgeDirected { return runEdgeDirected(band) }
        if method == .residualInterpolation { return runResidualInterpolation(band) }
        let s = band.bayerStride
        let pairs = (band.width + 1) / 2
        for y in band.rows {
            let src = UnsafePointer(band.bayerRow(y - band.rows.lowerBound + ISPBand.bayerPad))
            let greenFirst = cfa.color(x: 0, y: y) == 1
            let own = greenFirst ? cfa.color(x: 1, y: y) : cfa.color(x: 0, y: y)
            let phase = greenFirst ? 1 : 0
            let ownRow = band.row(own, y), otherRow = band.row(2 - own, y), greenRow = band.row(1, y)
            switch method {
            case .bilinear:
                DemosaicStage.bilinearRow(src, s, own: ownRow, other: otherRow, green: greenRow,
                                          phase: phase, pairs: pairs)
            case .malvarHeCutler:
                DemosaicStage.malvarRow(src, s, own: ownRow, other: otherRow, green: greenRow,
                                        phase: phase, pairs: pairs)
            case .edgeDirected, .residualInterpolation:
                preconditionFailure("handled above")
            }
        }
    }

    /// Bilinear interpolation of one row; `phase` is the x parity of the non-green sites.
    @inline(__always)
    static func bilinearRow(_ src: UnsafePointer<Float>, _ s: Int, own: UnsafeMutablePointer<Float>,
                            other: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                            phase: Int, pairs: Int) {
        for k in 0..<pairs {
            let xn = 2 * k + phase, xg = 2 * k + 1 - phase
            let c = src + xn
            own[xn] = c[0]
            green[xn] = (c[-1] + c[1] + c[-s] + c[s]) * 0.25
            other[xn] = (c[-s - 1] + c[-s + 1] + c[s - 1] + c[s + 1]) * 0.25
            let g = src + xg
            green[xg] = g[0]
            own[xg] = (g[-1] + g[1]) * 0.5
            other[xg] = (g[-s] + g[s]) * 0.5
        }
    }

    /// Malvar-He-Cutler gradient-corrected interpolation of one row (Getreuer, IPOL 2011).
    ///
    /// Eight pixels at a time: all four MHC filters are evaluated at every pixel with contiguous
    /// vector loads, and each output keeps the filter that belongs to the pixel's CFA phase.
    /// Reads up to 9 samples past the row end and writes up to 7 past `2 × pairs` (see ISPBand).
    @inline(__always)
    static func malvarRow(_ src: UnsafePointer<Float>, _ s: Int, own: UnsafeMutablePointer<Float>,
                          other: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                          phase: Int, pairs: Int) {
        typealias V = SIMD8<Float>
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V {
            UnsafeRawPointer(p).loadUnaligned(as: V.self)
        }
        @inline(__always) func store(_ v: V, _ p: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
        }
        // Lanes at non-green sites.
        let even = SIMDMask<SIMD8<Int32>>([true, false, true, false, true, false, true, false])
        let nonGreen = phase == 0 ? even : .!even
        let s2 = 2 * s
        let count = 2 * pairs
        var x = 0
        while x < count {
            let c = src + x
            let c0 = load(c)
            let l1 = load(c - 1), r1 = load(c + 1), u1 = load(c - s), d1 = load(c + s)
            let l2 = load(c - 2), r2 = load(c + 2), u2 = load(c - s2), d2 = load(c + s2)
            let diag = (load(c - s - 1) + load(c - s + 1)) + (load(c + s - 1) + load(c + s + 1))
            let h1 = l1 + r1, v1 = u1 + d1, h2 = l2 + r2, v2 = u2 + d2
            let cross2 = h2 + v2
            // Non-green site: G from the cross, O from the diagonals.
            let gAtC = (4 * c0 + 2 * (h1 + v1) - cross2) * 0.125
            let oAtC = (6 * c0 + 2 * diag - 1.5 * cross2) * 0.125
            // Green site: C lies left/right, O above/below.
            let cAtG = (5 * c0 + 4 * h1 - h2 - diag + 0.5 * v2) * 0.125
            let oAtG = (5 * c0 + 4 * v1 - v2 - diag + 0.5 * h2) * 0.125
            store(cAtG.replacing(with: c0, where: nonGreen), own + x)
            store(c0.replacing(with: gAtC, where: nonGreen), green + x)
            store(oAtG.replacing(with: oAtC, where: nonGreen), other + x)
            x += 8
        }
    }
}
