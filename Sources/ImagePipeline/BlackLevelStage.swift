import CaptureCore

/// Stage 1: 14-bit codes → normalised, white-balanced, exposure-scaled Float Bayer samples (a linear image's: RGB
/// planes, the demosaic skipped).
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
    /// For a linear image (`RawImage.isLinear`): black level and combined scale per channel R, G, B.
    private let linear: (black: [Float], scale: [Float])?
    /// The level every channel is clipped to (the smallest channel's saturation on white).
    let clip: Float
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
        if raw.isLinear {
            let channelBlacks = (0..<3).map { raw.blackLevel.isEmpty ? 0 : raw.blackLevel[$0 % raw.blackLevel.count] }
            linear = (channelBlacks, (0..<3).map { c in
                Float(gains[c] * exposureGain / max(1, Double(raw.whiteLevel) - Double(channelBlacks[c])))
            })
        } else {
            linear = nil
        }
        // Each channel saturates at its gain × 1.0 normalised; the smallest of those is where
        // white stops being white, so nothing may exceed it.
        clip = Float(min(gains.x, gains.y, gains.z) * exposureGain)
        if correctsShading, let lens = raw.vignettingCorrection {
            let m = lens.normalisingRadius
            var k = SIMD8<Float>()
            for (i, value) in lens.vignetting.prefix(5).enumerated() { k[i] = Float(value) }
            shading = (SIMD2(Float(lens.center.x), Float(lens.center.y)), Float(1 / (m * m)), k)
        } else {
            shading = nil
        }
    }

    /// The largest value a sample can take: the clip level times the largest vignetting gain (r² from 0 to 1, the
    /// corner).
    var maximum: Float {
        guard let shading else { return clip }
        let largest = stride(from: 0, to: 72, by: 8).map { start -> Float in
            let r2 = (SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + Float(start)) / 64
            return Self.vignettingGain(r2: r2.replacing(with: 1, where: r2 .> 1), k: shading.k).max()
        }.max() ?? 1
        return clip * max(1, largest)
    }

    /// The vignetting gain 1 + r²(k0 + r²(k1 + …)) at normalised squared radii `r2`.
    @inline(__always)
    private static func vignettingGain(r2: SIMD8<Float>, k: SIMD8<Float>) -> SIMD8<Float> {
        var g = r2 * k[4] + k[3]
        g = g * r2 + k[2]
        g = g * r2 + k[1]
        g = g * r2 + k[0]
        return g * r2 + 1
    }

    /// Converts the Bayer rows the band needs (with `ISPBand.bayerPad` rows and columns of reflected context).
    func run(_ codes: UnsafePointer<UInt16>, into band: ISPBand) {
        let w = band.width
        for j in 0..<(band.rows.count + 2 * ISPBand.bayerPad) {
            let iy = ISPBand.reflect(band.rows.lowerBound - ISPBand.bayerPad + j, band.height)
            convert(codes + iy * w, into: band.bayerRow(j), width: w, row: iy)
            band.padBayerRow(j)
        }
    }

    /// A linear image's rows of `band.rows` (camera RGB, three codes a pixel) straight into planes 0…2, converted as
    /// `run` converts a mosaic's: what the demosaic would have made of a mosaic.
    func runLinear(_ codes: UnsafePointer<UInt16>, into band: ISPBand) {
        guard let linear else { preconditionFailure("not a linear image") }
        let w = band.width, c = clip
        let b0 = linear.black[0], b1 = linear.black[1], b2 = linear.black[2]
        let s0 = linear.scale[0], s1 = linear.scale[1], s2 = linear.scale[2]
        for y in band.rows {
            let src = codes + y * w * 3
            let r = band.row(0, y), g = band.row(1, y), b = band.row(2, y)
            for x in 0..<w {
                r[x] = min((Float(src[3 * x]) - b0) * s0, c)
                g[x] = min((Float(src[3 * x + 1]) - b1) * s1, c)
                b[x] = min((Float(src[3 * x + 2]) - b2) * s2, c)
            }
            if let shading {
                let dy = Float(y) + 0.5 - shading.center.y
                for x in 0..<w {
                    let dx = Float(x) + 0.5 - shading.center.x
                    let gain = Self.vignettingGain(r2: SIMD8(repeating: (dx * dx + dy * dy) * shading.inverseRadius2),
                                                   k: shading.k)[0]
                    r[x] *= gain
                    g[x] *= gain
                    b[x] *= gain
                }
            }
        }
    }

    /// One row: (code − black) × scale, clipped, times the vignetting gain at each pixel centre; eight samples at a
    /// time (the even/odd CFA columns alternate within the vector).
    private func convert(_ src: UnsafePointer<UInt16>, into dst: UnsafeMutablePointer<Float>, width w: Int, row y: Int) {
        let p = (y & 1) * 2
        let b0 = black[p], s0 = scale[p], b1 = black[p + 1], s1 = scale[p + 1], c = clip
        let blacks = SIMD8(b0, b1, b0, b1, b0, b1, b0, b1), scales = SIMD8(s0, s1, s0, s1, s0, s1, s0, s1)
        let clips = SIMD8<Float>(repeating: c)
        // Vignetting gain 1 + r²(k0 + r²(k1 + …)) with r² = (dx² + dy²) / m², dx from the pixel centre.
        let dy = shading.map { Float(y) + 0.5 - $0.center.y } ?? 0
        let dy2 = dy * dy
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        func gain(_ dx: SIMD8<Float>, _ s: (center: SIMD2<Float>, inverseRadius2: Float, k: SIMD8<Float>)) -> SIMD8<Float> {
            Self.vignettingGain(r2: (dx * dx + dy2) * s.inverseRadius2, k: s.k)
        }
        var x = 0
        while x + 8 <= w {
            let codes = UnsafeRawPointer(src + x).loadUnaligned(as: SIMD8<UInt16>.self)
            var v = (SIMD8<Float>(codes) - blacks) * scales
            v.replace(with: clips, where: v .> clips)   // (a select: pointwiseMin is a call here)
            if let shading { v *= gain(lanes + (Float(x) + 0.5 - shading.center.x), shading) }
            UnsafeMutableRawPointer(dst + x).storeBytes(of: v, as: SIMD8<Float>.self)
            x += 8
        }
        while x < w {
            let odd = x & 1 == 1
            var v = min((Float(src[x]) - (odd ? b1 : b0)) * (odd ? s1 : s0), c)
            if let shading {
                v *= gain(SIMD8(repeating: Float(x) + 0.5 - shading.center.x), shading)[0]
            }
            dst[x] = v
            x += 1
        }
    }
}
