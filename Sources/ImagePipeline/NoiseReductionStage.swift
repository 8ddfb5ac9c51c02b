import CaptureCore

/// Stage 4: noise reduction and sharpening in a luma / colour-difference space.
///
/// Y = (R + 2G + B) / 4, U = R − G, V = B − G. Each is split into a local mean (3×3 box for Y,
/// 5×5 for U and V) and a detail d; the detail is kept with weight d² / (d² + λσ²), where σ² is the
/// variance the raw noise profile predicts at that signal level after white balance, gain and
/// colour matrix. Detail well above the noise survives (the sharpening amount boosts luma detail, applied as a gain
/// on the pixel within one EV either way), detail at the noise level is flattened. With a zero noise profile it is the
/// identity (plus sharpening). Cost: a few horizontal box sums per band and one fused pass per row.
struct NoiseReductionStage {
    /// Luma noise variance = aY · level + bY (λ folded in); likewise for U and V.
    private let aY: Float, bY: Float, aU: Float, bU: Float, aV: Float, bV: Float
    private let sharpen: Float
    /// Whether the luma / chroma paths run at all.
    let lumaActive: Bool
    let chromaActive: Bool
    static let lumaRadius = 1
    static let chromaRadius = 2

    /// Rows of context the stage needs above and below the rows it emits.
    var context: Int {
        chromaActive ? NoiseReductionStage.chromaRadius : (lumaActive ? NoiseReductionStage.lumaRadius : 0)
    }

    init(raw: RawImage, gains: SIMD3<Double>, exposureGain: Double, matrix: [Float],
         strength: Double, sharpening: Double) {
        let profile = NoiseReductionStage.perColorProfile(raw)
        let m = matrix.map(Double.init)
        func coefficients(_ a: [Double], lambda: Double) -> (Float, Float) {
            var slope = 0.0, offset = 0.0
            for j in 0..<3 {
                let g = gains[j] * exposureGain
                slope += a[j] * a[j] * g * profile[j].scale
                offset += a[j] * a[j] * g * g * profile[j].offset
            }
            return (Float(lambda * slope), Float(lambda * offset))
        }
        var lumaWeights = [Double](repeating: 0, count: 3), uWeights = lumaWeights, vWeights = lumaWeights
        for j in 0..<3 {
            let r: Double = m[j], g: Double = m[3 + j], b: Double = m[6 + j]
            lumaWeights[j] = 0.25 * r + 0.5 * g + 0.25 * b
            uWeights[j] = r - g
            vWeights[j] = b - g
        }
        let s = max(0, strength)
        (aY, bY) = coefficients(lumaWeights, lambda: 2 * s)
        (aU, bU) = coefficients(uWeights, lambda: 6 * s)
        (aV, bV) = coefficients(vWeights, lambda: 6 * s)
        sharpen = Float(max(0, sharpening))
        let noisy = s > 0 && max(aY + bY, aU + bU, aV + bV) > 1e-9
        chromaActive = noisy
        lumaActive = noisy || sharpen > 0
    }

    /// The noise profile as one (scale, offset) per colour, whatever form the raw frame gives.
    static func perColorProfile(_ raw: RawImage) -> [(scale: Double, offset: Double)] {
        let p = raw.noiseProfile
        switch p.count {
        case 0: return Array(repeating: (0, 0), count: 3)
        case 1, 2: return Array(repeating: p[0], count: 3)
        case 3: return p
        default:
            // Per CFA position: average the positions of each colour.
            let colors = raw.cfa.colors
            return (0..<3).map { c in
                let idx = (0..<4).filter { colors[$0] == c }
                let n = Double(max(1, idx.count))
                return (idx.reduce(0) { $0 + p[$1].scale } / n, idx.reduce(0) { $0 + p[$1].offset } / n)
            }
        }
    }

    /// Converts planes 0…2 of all band rows to Y, U, V and writes horizontal box sums to planes 3…5.
    func prepare(_ band: ISPBand) {
        guard lumaActive else { return }
        let w = band.width
        for y in band.rows {
            let r = band.row(0, y), g = band.row(1, y), b = band.row(2, y)
            for x in 0..<w {
                let rv = r[x], gv = g[x], bv = b[x]
                r[x] = 0.25 * (rv + bv) + 0.5 * gv
                g[x] = rv - gv
                b[x] = bv - gv
            }
            NoiseReductionStage.boxRow(r, band.row(3, y), w, NoiseReductionStage.lumaRadius)
            if chromaActive {
                NoiseReductionStage.boxRow(g, band.row(4, y), w, NoiseReductionStage.chromaRadius)
                NoiseReductionStage.boxRow(b, band.row(5, y), w, NoiseReductionStage.chromaRadius)
            }
        }
    }

    /// Horizontal sum over 2r + 1 samples, edges clamped.
    @inline(__always)
    static func boxRow(_ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ w: Int, _ r: Int) {
        @inline(__always) func edge(_ x: Int) {
            var sum: Float = 0
            for k in -r...r { sum += src[min(max(x + k, 0), w - 1)] }
            dst[x] = sum
        }
        if w <= 2 * r { for x in 0..<w { edge(x) }; return }
        for x in 0..<r { edge(x) }
        if r == 1 {
            for x in 1..<(w - 1) { dst[x] = src[x - 1] + src[x] + src[x + 1] }
        } else if r == 2 {
            for x in 2..<(w - 2) { dst[x] = (src[x - 2] + src[x - 1]) + src[x] + (src[x + 1] + src[x + 2]) }
        } else {
            for x in r..<(w - r) {
                var sum: Float = 0
                for k in -r...r { sum += src[x + k] }
                dst[x] = sum
            }
        }
        for x in (w - r)..<w { edge(x) }
    }

    /// Denoises and sharpens image row `y`, leaving RGB in planes 0…2 of that row.
    func finish(_ band: ISPBand, row y: Int) {
        guard lumaActive else { return }
        let w = band.width
        let yp = band.row(0, y), up = band.row(1, y), vp = band.row(2, y)
        let h0 = band.clampedRow(3, y - 1), h1 = band.row(3, y), h2 = band.clampedRow(3, y + 1)
        let sharpen = sharpen
        let aY = aY, bY = bY
        if chromaActive {
            let aU = aU, bU = bU, aV = aV, bV = bV
            let u0 = band.clampedRow(4, y - 2), u1 = band.clampedRow(4, y - 1), u2 = band.row(4, y)
            let u3 = band.clampedRow(4, y + 1), u4 = band.clampedRow(4, y + 2)
            let v0 = band.clampedRow(5, y - 2), v1 = band.clampedRow(5, y - 1), v2 = band.row(5, y)
            let v3 = band.clampedRow(5, y + 1), v4 = band.clampedRow(5, y + 2)
            for x in 0..<w {
                let yb = (h0[x] + h1[x] + h2[x]) * (1 / 9)
                let level = max(yb, 0)
                let d = yp[x] - yb
                let kept = d * (d * d / (d * d + aY * level + bY + 1e-12))
                let yo = yb + kept, ratio = Self.sharpeningRatio(denoised: yo, detail: kept, amount: sharpen)
                let ub = (u0[x] + u1[x] + u2[x] + u3[x] + u4[x]) * (1 / 25)
                let du = up[x] - ub
                let uo = ub + du * (du * du / (du * du + aU * level + bU + 1e-12))
                let vb = (v0[x] + v1[x] + v2[x] + v3[x] + v4[x]) * (1 / 25)
                let dv = vp[x] - vb
                let vo = vb + dv * (dv * dv / (dv * dv + aV * level + bV + 1e-12))
                let g = yo - 0.25 * (uo + vo)
                yp[x] = (uo + g) * ratio
                up[x] = g * ratio
                vp[x] = (vo + g) * ratio
            }
        } else {
            for x in 0..<w {
                let yb = (h0[x] + h1[x] + h2[x]) * (1 / 9)
                let d = yp[x] - yb
                let kept = d * (d * d / (d * d + aY * max(yb, 0) + bY + 1e-12))
                let yo = yb + kept, ratio = Self.sharpeningRatio(denoised: yo, detail: kept, amount: sharpen)
                let uo = up[x], vo = vp[x]
                let g = yo - 0.25 * (uo + vo)
                yp[x] = (uo + g) * ratio
                up[x] = g * ratio
                vp[x] = (vo + g) * ratio
            }
        }
    }

    /// Sharpening as a gain on the whole pixel: the boosted luma over the denoised one, within one EV either way.
    /// (Added to luma alone in linear light, the boost takes a thin dark line on a bright sky below black, and the
    /// line keeps only its colour difference: a saturated blue or red stroke. As a gain, hue and saturation stay.)
    @inline(__always)
    static func sharpeningRatio(denoised: Float, detail: Float, amount: Float) -> Float {
        denoised > 1e-6 ? min(max(1 + detail * amount / denoised, 0.5), 2) : 1
    }
}
