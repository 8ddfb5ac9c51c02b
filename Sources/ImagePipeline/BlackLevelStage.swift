import CaptureCore

/// Stage 1: 14-bit codes → normalised, white-balanced, exposure-scaled Float Bayer samples.
///
/// Subtracts the black level per CFA position, divides by the white − black range, applies the
/// white-balance gain of the photosite's colour and the digital exposure gain, and clips at the
/// level where the first channel saturates on white, so clipped highlights stay neutral white
/// instead of turning magenta.
struct BlackLevelStage {
    /// Per 2×2 CFA position (row-major): black level and the combined scale.
    private let black: [Float]
    private let scale: [Float]
    private let clip: Float

    init(raw: RawImage, gains: SIMD3<Double>, exposureGain: Double) {
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
            band.padBayerRow(j)
        }
    }
}
