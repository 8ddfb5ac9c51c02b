import CaptureCore

/// Burt–Adelson pyramid steps with the 5-tap binomial kernel [1 4 6 4 1]/16: `reduce` (blur, then
/// keep every other sample; size ⌈n/2⌉) and `expandRow` (upsample one row of the next-finer level).
/// Any `expand` used the same way when building and collapsing a Laplacian pyramid reconstructs exactly.
enum Pyramid {
    /// Rows per band for a level of this width: about 64 KB of floats, at least 8 rows.
    static func bandRows(width: Int) -> Int { max(8, min(64, 16_384 / max(1, width))) }

    /// One reduced row from a row of vertically filtered samples `t` (width `w`, unnormalised),
    /// scaled by `scale`.
    @inline(__always)
    static func reduceRow(_ t: UnsafeMutablePointer<Float>, width w: Int, into out: UnsafeMutablePointer<Float>,
                          outWidth ow: Int, scale: Float) {
        @inline(__always) func at(_ j: Int) -> Float {
            let c = 2 * j
            return scale * (t[reflect101(c - 2, w)] + t[reflect101(c + 2, w)]
                + 4 * (t[reflect101(c - 1, w)] + t[reflect101(c + 1, w)]) + 6 * t[reflect101(c, w)])
        }
        // Interior outputs whose five taps lie inside the row: 1 ≤ j and 2j + 2 ≤ w − 1.
        let hi = w >= 5 ? (w - 3) / 2 : 0
        if hi < 1 {
            for j in 0..<ow { out[j] = at(j) }
            return
        }
        out[0] = at(0)
        var j = 1
        while j <= hi {
            let c = 2 * j
            out[j] = scale * (t[c - 2] + t[c + 2] + 4 * (t[c - 1] + t[c + 1]) + 6 * t[c])
            j += 1
        }
        while j < ow { out[j] = at(j); j += 1 }
    }

    /// The next-coarser Gaussian level of `src`.
    static func reduce(_ src: FloatPlane) -> FloatPlane {
        let w = src.width, h = src.height, ow = (w + 1) / 2, oh = (h + 1) / 2
        let dst = FloatPlane(width: ow, height: oh)
        Parallel.forEachBand(height: oh, bandHeight: bandRows(width: ow)) { rows in
            let t = UnsafeMutablePointer<Float>.allocate(capacity: w)
            defer { t.deallocate() }
            for y in rows {
                let r0 = src.row(reflect101(2 * y - 2, h)), r1 = src.row(reflect101(2 * y - 1, h))
                let r2 = src.row(reflect101(2 * y, h)), r3 = src.row(reflect101(2 * y + 1, h))
                let r4 = src.row(reflect101(2 * y + 2, h))
                for x in 0..<w { t[x] = (r0[x] + r4[x]) + 4 * (r1[x] + r3[x]) + 6 * r2[x] }
                reduceRow(t, width: w, into: dst.row(y), outWidth: ow, scale: 1.0 / 256)
            }
        }
        return dst
    }

    /// The first reduced level of an interleaved 8-bit RGB image, as three planes in [0, 1].
    static func reduce(rgb image: Raster<UInt8>) -> [FloatPlane] {
        let w = image.width, h = image.height, ow = (w + 1) / 2, oh = (h + 1) / 2
        let planes = (0..<3).map { _ in FloatPlane(width: ow, height: oh) }
        image.storage.withUnsafeBufferPointer { src in
            let s = src.baseAddress!
            Parallel.forEachBand(height: oh, bandHeight: bandRows(width: ow)) { rows in
                let t = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                let p = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                defer { t.deallocate(); p.deallocate() }
                for y in rows {
                    reduceRGBRow(s, width: w, height: h, row: y, into: (planes[0].row(y), planes[1].row(y), planes[2].row(y)),
                                 scratch: t, planes: p)
                }
            }
        }
        return planes
    }

    /// Row `y` of the first reduced level of interleaved 8-bit RGB `s` (w × h), one plane per channel in
    /// [0, 1]; `t` and `p` are scratch of 3·w floats each.
    @inline(__always)
    static func reduceRGBRow(_ s: UnsafePointer<UInt8>, width w: Int, height h: Int, row y: Int,
                             into out: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                             scratch t: UnsafeMutablePointer<Float>, planes p: UnsafeMutablePointer<Float>) {
        let ow = (w + 1) / 2
        let r0 = s + reflect101(2 * y - 2, h) * 3 * w, r1 = s + reflect101(2 * y - 1, h) * 3 * w
        let r2 = s + reflect101(2 * y, h) * 3 * w, r3 = s + reflect101(2 * y + 1, h) * 3 * w
        let r4 = s + reflect101(2 * y + 2, h) * 3 * w
        for i in 0..<(3 * w) {
            let a = Float(r0[i]) + Float(r4[i]), b = Float(r1[i]) + Float(r3[i])
            t[i] = a + 4 * b + 6 * Float(r2[i])
        }
        // One loop for all three channels: an interleaved group the compiler vectorises.
        let pr = p, pg = p + w, pb = p + 2 * w
        for x in 0..<w { pr[x] = t[3 * x]; pg[x] = t[3 * x + 1]; pb[x] = t[3 * x + 2] }
        let scale: Float = 1.0 / (256 * 255)
        reduceRow(pr, width: w, into: out.0, outWidth: ow, scale: scale)
        reduceRow(pg, width: w, into: out.1, outWidth: ow, scale: scale)
        reduceRow(pb, width: w, into: out.2, outWidth: ow, scale: scale)
    }

    /// Row `y` of `g` expanded to the next-finer level (see the general form below).
    @inline(__always)
    static func expandRow(_ g: FloatPlane, y: Int, width: Int, scratch t: UnsafeMutablePointer<Float>,
                          into out: UnsafeMutablePointer<Float>) {
        expandRow(rowAt: { g.row($0) }, width: g.width, height: g.height, y: y, outWidth: width, scratch: t, into: out)
    }

    /// Row `y` of a level of `gw` × `gh` (whose rows `rowAt` gives) expanded to the next-finer level of
    /// size `width` × (any height ≤ 2·gh), written to `out`; `t` is scratch of at least `gw` floats.
    @inline(__always)
    static func expandRow(rowAt row: (Int) -> UnsafeMutablePointer<Float>, width gw: Int, height gh: Int, y: Int,
                          outWidth width: Int, scratch t: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        if y & 1 == 0 {
            let i = y >> 1
            let a = row(reflect101(i - 1, gh)), b = row(i), c = row(reflect101(i + 1, gh))
            for x in 0..<gw { t[x] = 0.125 * (a[x] + c[x]) + 0.75 * b[x] }
        } else {
            let i = y >> 1
            let a = row(i), b = row(reflect101(i + 1, gh))
            for x in 0..<gw { t[x] = 0.5 * (a[x] + b[x]) }
        }
        // Even outputs 2j: (t[j−1] + 6 t[j] + t[j+1]) / 8; odd outputs 2j+1: (t[j] + t[j+1]) / 2.
        if gw == 1 {
            for x in 0..<width { out[x] = t[0] }
            return
        }
        out[0] = 0.25 * t[1] + 0.75 * t[0]
        if width > 1 { out[1] = 0.5 * (t[0] + t[1]) }
        let last = (width - 2) / 2  // largest j with 2j + 1 < width
        var j = 1
        while j < min(gw - 1, last + 1) {
            let l = t[j - 1], m = t[j], r = t[j + 1]
            out[2 * j] = 0.125 * (l + r) + 0.75 * m
            out[2 * j + 1] = 0.5 * (m + r)
            j += 1
        }
        // Remaining outputs near the right edge, with the mirrored neighbour.
        var x = 2 * j
        while x < width {
            let jj = x >> 1
            if x & 1 == 0 {
                out[x] = 0.125 * (t[reflect101(jj - 1, gw)] + t[reflect101(jj + 1, gw)]) + 0.75 * t[jj]
            } else {
                out[x] = 0.5 * (t[jj] + t[reflect101(jj + 1, gw)])
            }
            x += 1
        }
    }
}
