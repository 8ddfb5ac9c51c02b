import CaptureCore

/// Stage 2: Bayer samples → planar RGB for the band's rows.
///
/// Each row of a Bayer image holds one non-green colour C and green; the other non-green O sits
/// in the rows above and below. The kernels below are written for such a row and used for red
/// and blue rows alike by swapping the output planes.
struct DemosaicStage {
    let method: DemosaicMethod
    let cfa: CFAPattern

    /// Fills planes 0…2 (R, G, B) of `band.rows` from `band.bayer`.
    func run(_ band: ISPBand) {
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
    @inline(__always)
    static func malvarRow(_ src: UnsafePointer<Float>, _ s: Int, own: UnsafeMutablePointer<Float>,
                          other: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                          phase: Int, pairs: Int) {
        let s2 = 2 * s
        for k in 0..<pairs {
            let xn = 2 * k + phase, xg = 2 * k + 1 - phase
            // Non-green site: G from the cross, O from the diagonals, both corrected by C's Laplacian.
            let c = src + xn
            let c0 = c[0]
            let cross1 = c[-1] + c[1] + c[-s] + c[s]
            let cross2 = c[-2] + c[2] + c[-s2] + c[s2]
            let diag = c[-s - 1] + c[-s + 1] + c[s - 1] + c[s + 1]
            own[xn] = c0
            green[xn] = (4 * c0 + 2 * cross1 - cross2) * 0.125
            other[xn] = (6 * c0 + 2 * diag - 1.5 * cross2) * 0.125
            // Green site: C lies left/right, O above/below.
            let g = src + xg
            let g0 = g[0]
            let gdiag = g[-s - 1] + g[-s + 1] + g[s - 1] + g[s + 1]
            let h2 = g[-2] + g[2], v2 = g[-s2] + g[s2]
            green[xg] = g0
            own[xg] = (5 * g0 + 4 * (g[-1] + g[1]) - h2 - gdiag + 0.5 * v2) * 0.125
            other[xg] = (5 * g0 + 4 * (g[-s] + g[s]) - v2 - gdiag + 0.5 * h2) * 0.125
        }
    }
}
