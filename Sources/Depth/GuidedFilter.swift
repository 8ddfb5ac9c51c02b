import CaptureCore

/// Box means and He et al.'s guided filter ("Guided Image Filtering", ECCV 2010 / TPAMI 2013) on flat
/// row-major buffers: the edge-aware step that makes a coarse matte follow the photo's edges.
enum GuidedFilter {
    /// Mean of every channel of an interleaved `channels`-channel image over the (2r+1)² window around each pixel,
    /// the window clipped at the borders (divided by the pixels it holds). Running sums in Double, rows in bands.
    static func boxMean(_ source: [Float], width: Int, height: Int, channels: Int, radius: Int) -> [Float] {
        let count = width * height * channels
        precondition(source.count == count, "box filter: buffer does not match its shape")
        guard count > 0 else { return [] }
        let r = max(0, radius)
        // Horizontal pass: running sums along each row.
        var horizontal = [Float](repeating: 0, count: count)
        source.withUnsafeBufferPointer { srcBuffer in
            horizontal.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                Parallel.forEachBand(height: height, bandHeight: 16) { rows in
                    var sums = [Double](repeating: 0, count: channels)
                    for y in rows {
                        let row = src + y * width * channels, out = dst + y * width * channels
                        for c in 0..<channels { sums[c] = 0 }
                        for x in 0..<min(r, width) {
                            for c in 0..<channels { sums[c] += Double(row[x * channels + c]) }
                        }
                        for x in 0..<width {
                            let add = x + r, remove = x - r - 1
                            if add < width { for c in 0..<channels { sums[c] += Double(row[add * channels + c]) } }
                            if remove >= 0 { for c in 0..<channels { sums[c] -= Double(row[remove * channels + c]) } }
                            let n = Double(min(width - 1, x + r) - max(0, x - r) + 1)
                            for c in 0..<channels { out[x * channels + c] = Float(sums[c] / n) }
                        }
                    }
                }
            }
        }
        // Vertical pass: each band keeps one running sum per row element and slides it down its rows.
        var result = [Float](repeating: 0, count: count)
        let stride = width * channels
        horizontal.withUnsafeBufferPointer { srcBuffer in
            result.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                Parallel.forEachBand(height: height, bandHeight: 32) { rows in
                    var sums = [Double](repeating: 0, count: stride)
                    let first = rows.lowerBound
                    // Rows first−r−1 … first+r−1: the first step adds first+r and removes first−r−1.
                    for y in max(0, first - r - 1)..<min(height, first + r) {
                        let row = src + y * stride
                        for i in 0..<stride { sums[i] += Double(row[i]) }
                    }
                    for y in rows {
                        let add = y + r, remove = y - r - 1
                        if add < height { let row = src + add * stride; for i in 0..<stride { sums[i] += Double(row[i]) } }
                        if remove >= 0 { let row = src + remove * stride; for i in 0..<stride { sums[i] -= Double(row[i]) } }
                        let n = Double(min(height - 1, y + r) - max(0, y - r) + 1)
                        let out = dst + y * stride
                        for i in 0..<stride { out[i] = Float(sums[i] / n) }
                    }
                }
            }
        }
        return result
    }

    /// The colour guided filter: `input` (1 channel) filtered with the edges of `guide` (3 channels, same size),
    /// window radius `radius`, regularisation `epsilon` (in the guide's units squared).
    static func filter(input: [Float], guide: [Float], width: Int, height: Int, radius: Int, epsilon: Float) -> [Float] {
        let n = width * height
        precondition(input.count == n && guide.count == 3 * n, "guided filter: buffers do not match")
        guard n > 0 else { return [] }
        // Per pixel: I (3), p, I·Iᵀ (6: rr rg rb gg gb bb), I·p (3) — one 13-channel box pass.
        let k = 13
        var moments = [Float](repeating: 0, count: n * k)
        guide.withUnsafeBufferPointer { gBuffer in
            input.withUnsafeBufferPointer { pBuffer in
                moments.withUnsafeMutableBufferPointer { mBuffer in
                    let g = gBuffer.baseAddress!, p = pBuffer.baseAddress!, m = mBuffer.baseAddress!
                    Parallel.forEachBand(height: height) { rows in
                        for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
                            let r = g[3 * i], gr = g[3 * i + 1], b = g[3 * i + 2], v = p[i]
                            let o = m + k * i
                            o[0] = r; o[1] = gr; o[2] = b; o[3] = v
                            o[4] = r * r; o[5] = r * gr; o[6] = r * b; o[7] = gr * gr; o[8] = gr * b; o[9] = b * b
                            o[10] = r * v; o[11] = gr * v; o[12] = b * v
                        }
                    }
                }
            }
        }
        let means = boxMean(moments, width: width, height: height, channels: k, radius: radius)
        moments = []
        // Per window: a = (Σ + εU)⁻¹ cov(I, p), b = mean(p) − a·mean(I).
        var coefficients = [Float](repeating: 0, count: n * 4)
        means.withUnsafeBufferPointer { mBuffer in
            coefficients.withUnsafeMutableBufferPointer { cBuffer in
                let m = mBuffer.baseAddress!, c = cBuffer.baseAddress!
                Parallel.forEachBand(height: height) { rows in
                    for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
                        let o = m + k * i
                        let mr = Double(o[0]), mg = Double(o[1]), mb = Double(o[2]), mp = Double(o[3])
                        let e = Double(epsilon)
                        let srr = Double(o[4]) - mr * mr + e, srg = Double(o[5]) - mr * mg, srb = Double(o[6]) - mr * mb
                        let sgg = Double(o[7]) - mg * mg + e, sgb = Double(o[8]) - mg * mb, sbb = Double(o[9]) - mb * mb + e
                        let cr = Double(o[10]) - mr * mp, cg = Double(o[11]) - mg * mp, cb = Double(o[12]) - mb * mp
                        // Inverse of the symmetric 3×3 by cofactors (positive definite thanks to ε).
                        let i00 = sgg * sbb - sgb * sgb, i01 = srb * sgb - srg * sbb, i02 = srg * sgb - srb * sgg
                        let i11 = srr * sbb - srb * srb, i12 = srg * srb - srr * sgb, i22 = srr * sgg - srg * srg
                        let det = srr * i00 + srg * i01 + srb * i02
                        let out = c + 4 * i
                        guard det > 1e-30 else { out[0] = 0; out[1] = 0; out[2] = 0; out[3] = Float(mp); continue }
                        let ar = (i00 * cr + i01 * cg + i02 * cb) / det
                        let ag = (i01 * cr + i11 * cg + i12 * cb) / det
                        let ab = (i02 * cr + i12 * cg + i22 * cb) / det
                        out[0] = Float(ar); out[1] = Float(ag); out[2] = Float(ab)
                        out[3] = Float(mp - ar * mr - ag * mg - ab * mb)
                    }
                }
            }
        }
        let meanCoefficients = boxMean(coefficients, width: width, height: height, channels: 4, radius: radius)
        var output = [Float](repeating: 0, count: n)
        meanCoefficients.withUnsafeBufferPointer { aBuffer in
            guide.withUnsafeBufferPointer { gBuffer in
                output.withUnsafeMutableBufferPointer { qBuffer in
                    let a = aBuffer.baseAddress!, g = gBuffer.baseAddress!, q = qBuffer.baseAddress!
                    Parallel.forEachBand(height: height) { rows in
                        for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
                            q[i] = a[4 * i] * g[3 * i] + a[4 * i + 1] * g[3 * i + 1] + a[4 * i + 2] * g[3 * i + 2] + a[4 * i + 3]
                        }
                    }
                }
            }
        }
        return output
    }
}
