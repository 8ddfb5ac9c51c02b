/// The edge-directed demosaic (`DemosaicMethod.edgeDirected`), band by band.
///
/// 1. At every photosite, horizontal and vertical Hamilton-Adams gradients
///    Dh = |I(x−1) − I(x+1)| + |2I(x) − I(x−2) − I(x+2)| (and Dv alike).
/// 2. Green at red/blue sites: the horizontal and vertical Hamilton-Adams estimates
///    (G(x−1) + G(x+1)) / 2 + (2C(x) − C(x−2) − C(x+2)) / 4, blended with weights 1 / (ΣD)² where
///    ΣD sums the gradient over a 3×3 window — soft, noise-tolerant direction choice.
/// 3. Red and blue: G plus the bilinear interpolation of the known C − G differences
///    (diagonal at the opposite colour, left/right or up/down at green).
extension DemosaicStage {
    func runEdgeDirected(_ band: ISPBand) {
        let w = band.width, pad = ISPBand.bayerPad
        let r0 = band.rows.lowerBound, r1 = band.rows.upperBound
        // Gradients for image rows r0−2 ..< r1+2, columns −2 ..< w+2.
        let dStride = w + 4, dRows = (r1 - r0) + 4
        // Green for image rows r0−1 ..< r1+1, columns −1 ..< w+1.
        let gStride = w + 2, gRows = (r1 - r0) + 2
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 2 * dStride * dRows + gStride * gRows)
        defer { memory.deallocate() }
        let dh = memory, dv = memory + dStride * dRows, green = memory + 2 * dStride * dRows
        @inline(__always) func cfaRow(_ y: Int) -> UnsafeMutablePointer<Float> { band.bayerRow(y - r0 + pad) }
        @inline(__always) func dRow(_ d: UnsafeMutablePointer<Float>, _ y: Int) -> UnsafeMutablePointer<Float> {
            d + (y - (r0 - 2)) * dStride + 2
        }
        @inline(__always) func gRow(_ y: Int) -> UnsafeMutablePointer<Float> { green + (y - (r0 - 1)) * gStride + 1 }
        let s = band.bayerStride, s2 = 2 * s

        for y in (r0 - 2)..<(r1 + 2) {
            let c = UnsafePointer(cfaRow(y)), h = dRow(dh, y), v = dRow(dv, y)
            for x in -2..<(w + 2) {
                let p = c + x
                h[x] = abs(p[-1] - p[1]) + abs(2 * p[0] - p[-2] - p[2])
                v[x] = abs(p[-s] - p[s]) + abs(2 * p[0] - p[-s2] - p[s2])
            }
        }
        for y in (r0 - 1)..<(r1 + 1) {
            let c = UnsafePointer(cfaRow(y)), g = gRow(y)
            let ha = dRow(dh, y - 1), hb = dRow(dh, y), hc = dRow(dh, y + 1)
            let va = dRow(dv, y - 1), vb = dRow(dv, y), vc = dRow(dv, y + 1)
            let greenPhase = cfa.color(x: 0, y: y) == 1 ? 0 : 1
            for x in -1..<(w + 1) {
                let p = c + x
                if (x &- greenPhase) & 1 == 0 { g[x] = p[0]; continue }
                let gh = (p[-1] + p[1]) * 0.5 + (2 * p[0] - p[-2] - p[2]) * 0.25
                let gv = (p[-s] + p[s]) * 0.5 + (2 * p[0] - p[-s2] - p[s2]) * 0.25
                let sh = (ha[x - 1] + ha[x] + ha[x + 1]) + (hb[x - 1] + hb[x] + hb[x + 1]) + (hc[x - 1] + hc[x] + hc[x + 1])
                let sv = (va[x - 1] + va[x] + va[x + 1]) + (vb[x - 1] + vb[x] + vb[x + 1]) + (vc[x - 1] + vc[x] + vc[x + 1])
                let wh = 1 / (sh * sh + 1e-10), wv = 1 / (sv * sv + 1e-10)
                g[x] = (wh * gh + wv * gv) / (wh + wv)
            }
        }
        for y in r0..<r1 {
            let c = UnsafePointer(cfaRow(y)), up = UnsafePointer(cfaRow(y - 1)), down = UnsafePointer(cfaRow(y + 1))
            let g = gRow(y), gu = gRow(y - 1), gd = gRow(y + 1)
            let out = [band.row(0, y), band.row(1, y), band.row(2, y)]
            let rowColor = cfa.color(x: 0, y: y) == 1 ? cfa.color(x: 1, y: y) : cfa.color(x: 0, y: y)
            let ownOut = out[rowColor], otherOut = out[2 - rowColor], greenOut = out[1]
            let greenPhase = cfa.color(x: 0, y: y) == 1 ? 0 : 1
            for x in 0..<w {
                let g0 = g[x]
                greenOut[x] = g0
                if (x &- greenPhase) & 1 == 0 {
                    ownOut[x] = g0 + 0.5 * ((c[x - 1] - g[x - 1]) + (c[x + 1] - g[x + 1]))
                    otherOut[x] = g0 + 0.5 * ((up[x] - gu[x]) + (down[x] - gd[x]))
                } else {
                    ownOut[x] = c[x]
                    otherOut[x] = g0 + 0.25 * ((up[x - 1] - gu[x - 1]) + (up[x + 1] - gu[x + 1])
                                               + (down[x - 1] - gd[x - 1]) + (down[x + 1] - gd[x + 1]))
                }
            }
        }
    }
}
