import CaptureCore

/// Stage 1: 14-bit codes → normalised, white-balanced, exposure-scaled Float Bayer samples.
///
/// Subtracts the black level per CFA position, divides by the white − black range, applies the
/// white-balance gain of the photosite's colour and the digital exposure gain, and clips at the
/// level where the first channel saturates on white, so clipped highlights stay neutral white
/// instead of turning magenta. With a lens correction it also brightens the lens's vignetting (lens-shading
/// correction), clip level included, so a clipped corner stays white.
struct BlackLevelStage {
    /// Per 2×2 CFA position (row-major): black level and the combined scale.
    private let black: [Float]
    private let scale: [Float]
    private let clip: Float
    /// Vignetting gain 1 + k0 r² + … + k4 r¹⁰ (nil: none): centre, 1 / normalising radius², coefficients.
    private let shading: (center: SIMD2<Float>, inverseRadius2: Float, k: SIMD8<Float>)?

    init(raw: RawImage, gains: SIMD3<Double>, exposureGain: Double, correctsShading: Bool = true) {
        let colors = raw.cfa.colors
        let blacks = (0..<4).map { raw.blackLevel.isEmpty ? 0 : raw.blackLevel[$0 % raw.blackLevel.count] }
        black = blacks
        scale = (0..<4).map { i in
            let range = max(1, Double(raw.whiteLevel) - Double(blacks[i]))
            return Float(gains[colors[i]] * exposureGain / range)
        }
        // Each channel saturates at its gain × 1.0 normalised; the smallest of those is where
        // white stops being white, so nothing may exceed it.
        clip = Float(min(gains.x, gains.y, gains.z) * exposureGain)
        if correctsShading, let lens = raw.lensCorrection, lens.hasVignetting,
           lens.size == Size(width: raw.width, height: raw.height) {
            let m = lens.normalisingRadius
            var k = SIMD8<Float>()
            for (i, value) in lens.vignetting.prefix(5).enumerated() { k[i] = Float(value) }
            shading = (SIMD2(Float(lens.center.x), Float(lens.center.y)), Float(1 / (m * m)), k)
        } else {
            shading = nil
        }
    }

    /// Converts the Bayer rows the band needs (with `ISPBand.bayerPad` rows and columns of reflected context).
    func run(_ codes: UnsafePointer<UInt16>, into band: ISPBand) {
        let w = band.width
        for j in 0..<(band.rows.count + 2 * ISPBand.bayerPad) {
            let iy = ISPBand.reflect(band.rows.lowerBound - ISPBand.bayerPad + j, band.height)
            let src = codes + iy * w
            let dst = band.bayerRow(j)
            let p = (iy & 1) * 2
            let b0 = black[p], s0 = scale[p], b1 = black[p + 1], s1 = scale[p + 1], c = clip
            var x = 0
            while x + 1 < w {
                dst[x] = min((Float(src[x]) - b0) * s0, c)
                dst[x + 1] = min((Float(src[x + 1]) - b1) * s1, c)
                x += 2
            }
            if x < w { dst[x] = min((Float(src[x]) - b0) * s0, c) }
            if let shading { Self.brighten(dst, width: w, row: iy, shading) }
            band.padBayerRow(j)
        }
    }

    /// Multiplies one row by the vignetting gain at each pixel centre.
    private static func brighten(_ row: UnsafeMutablePointer<Float>, width: Int, row y: Int,
                                 _ shading: (center: SIMD2<Float>, inverseRadius2: Float, k: SIMD8<Float>)) {
        let dy = Float(y) + 0.5 - shading.center.y
        let dy2 = dy * dy
        let k = shading.k
        let k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3], k4 = k[4], scale = shading.inverseRadius2
        for x in 0..<width {
            let dx = Float(x) + 0.5 - shading.center.x
            let r2 = (dx * dx + dy2) * scale
            let g = 1 + r2 * (k0 + r2 * (k1 + r2 * (k2 + r2 * (k3 + r2 * k4))))
            row[x] *= g
        }
    }
}
