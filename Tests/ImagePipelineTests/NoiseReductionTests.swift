import CaptureCore
import Testing
@testable import ImagePipeline

@Suite struct NoiseReductionTests {
    /// Grey on the left, a colour on the right.
    static func flatAndEdge() -> Raster<Float> {
        var img = Fixtures.flat(width: 96, height: 64, SIMD3(0.18, 0.18, 0.18))
        for y in 0..<64 { for x in 48..<96 { img[x, y, 0] = 0.5; img[x, y, 1] = 0.3; img[x, y, 2] = 0.1 } }
        return img
    }

    @Test func raisesPSNROnNoisyHighISOFrame() {
        let truth = Self.flatAndEdge()
        let raw = Fixtures.raw(from: truth, noise: (scale: 4e-3, offset: 4e-5), seed: 7, iso: 3200)
        var off = Fixtures.plainSettings()
        let noisy = ImageSignalProcessor(settings: off).processLinear(raw)
        off.noiseReduction = 1
        let cleaned = ImageSignalProcessor(settings: off).processLinear(raw)
        let before = ImageQuality.psnr(noisy, truth, border: 2)
        let after = ImageQuality.psnr(cleaned, truth, border: 2)
        // The default demosaic already averages noise along edges (≈ 27 dB before), so the gain is
        // ≈ 3 dB rather than the ≈ 3.6 dB it is after Malvar-He-Cutler.
        #expect(after > before + 2.5 && after > 29.5, "PSNR \(before) → \(after) dB")
        // The edge survives: columns either side keep their level.
        #expect(abs(cleaned[44, 32, 0] - 0.18) < 0.05 && abs(cleaned[51, 32, 0] - 0.5) < 0.08)
    }

    /// A thin dark bar across a bright, bluish sky (a window's muntin): sharpened, it darkens but stays a neutral dark
    /// grey. Added to luma in linear light the boost took the bar below black and left only its colour difference: a
    /// saturated blue stroke.
    @Test func sharpeningKeepsAThinDarkLineNeutral() {
        var truth = Fixtures.flat(width: 64, height: 48, SIMD3(0.8, 0.85, 0.95))
        for y in 22..<24 { for x in 0..<64 { for c in 0..<3 { truth[x, y, c] = 0.04 } } }
        let raw = Fixtures.raw(from: truth)
        var settings = Fixtures.plainSettings()
        settings.sharpening = 1
        let sharpened = ImageSignalProcessor(settings: settings).processLinear(raw)
        let plain = ImageSignalProcessor(settings: Fixtures.plainSettings()).processLinear(raw)
        for y in 22..<24 {
            let p = (0..<3).map { sharpened[32, y, $0] }, q = (0..<3).map { plain[32, y, $0] }
            // Darker than unsharpened (by at most an EV), every channel above black, the hue of the unsharpened pixel.
            #expect(p[1] < q[1] && p[1] >= 0.5 * q[1] - 1e-4 && p.min()! > 0, "sharpened \(p), plain \(q)")
            #expect(abs(p[2] / p[1] - q[2] / q[1]) < 0.02, "blue / green \(p[2] / p[1]) vs \(q[2] / q[1])")
        }
    }

    @Test func doesAlmostNothingWithoutNoise() {
        let truth = Fixtures.colorful(width: 64, height: 48, frequency: 0.3)
        let raw = Fixtures.raw(from: truth)
        let off = ImageSignalProcessor(settings: Fixtures.plainSettings()).processLinear(raw)
        var s = Fixtures.plainSettings()
        s.noiseReduction = 1
        let on = ImageSignalProcessor(settings: s).processLinear(raw)
        #expect(ImageQuality.psnr(on, off) > 80)
    }

    @Test func profileScalesWithGainAndMatrix() {
        let raw = Fixtures.raw(from: Fixtures.flat(width: 8, height: 8, SIMD3(repeating: 0.5)), noise: (1e-3, 1e-5))
        let quiet = NoiseReductionStage(raw: raw, gains: SIMD3(1, 1, 1), exposureGain: 1,
                                        matrix: Matrix3.identity.m.map(Float.init), strength: 1, sharpening: 0)
        #expect(quiet.chromaActive && quiet.context == NoiseReductionStage.chromaRadius)
        let off = NoiseReductionStage(raw: raw, gains: SIMD3(1, 1, 1), exposureGain: 1,
                                      matrix: Matrix3.identity.m.map(Float.init), strength: 0, sharpening: 0)
        #expect(!off.lumaActive && off.context == 0)
    }
}
