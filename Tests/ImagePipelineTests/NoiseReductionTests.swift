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
