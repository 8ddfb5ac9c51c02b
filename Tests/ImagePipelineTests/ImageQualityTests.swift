import CaptureCore
import Foundation
import Testing
@testable import ImagePipeline

@Suite struct ImageQualityTests {
    @Test func cpsnrOfKnownError() {
        let a = Raster<UInt8>(width: 30, height: 30, channels: 3, repeating: 100)
        let b = Raster<UInt8>(width: 30, height: 30, channels: 3, repeating: 101)
        #expect(abs(ImageQuality.cpsnr(a, b) - 10 * log10(255.0 * 255.0)) < 1e-9)
        #expect(ImageQuality.cpsnr(a, a) == .infinity)
        var c = a
        c[0, 0, 0] = 0  // inside the excluded border
        #expect(ImageQuality.cpsnr(a, c) == .infinity)
        #expect(ImageQuality.cpsnr(a, c, border: 0) < 60)
    }

    @Test func psnrWithPeak() {
        let a = Raster<Float>(width: 4, height: 4, repeating: 0.5)
        let b = Raster<Float>(width: 4, height: 4, repeating: 0.6)
        #expect(abs(ImageQuality.psnr(a, b) - 20) < 1e-4)
    }

    @Test func ssimIsOneForIdenticalAndLowerForNoisy() {
        var rng = RandomSource(seed: 5)
        let ramp: [UInt8] = (0..<(48 * 48 * 3)).map { (i: Int) -> UInt8 in UInt8(((i / 3) % 48) * 5) }
        let a = Raster<UInt8>(width: 48, height: 48, channels: 3, storage: ramp)
        #expect(abs(ImageQuality.ssim(a, a) - 1) < 1e-12)
        let noisy = Raster<UInt8>(width: 48, height: 48, channels: 3,
                                  storage: a.storage.map { UInt8(clamping: Int($0) + Int(rng.next() % 41) - 20) })
        let s = ImageQuality.ssim(a, noisy)
        #expect(s < 0.9 && s > 0.1)
    }
}
