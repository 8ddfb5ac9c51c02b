import CaptureCore
import Testing
@testable import ImagePipeline

@Suite struct ResamplerTests {
    @Test(arguments: [(2, 2), (4, 3), (1, 5)])
    func exactOnIntegerFactors(fx: Int, fy: Int) {
        let w = 60, h = 60
        var rng = RandomSource(seed: 3)
        let img = Raster<UInt8>(width: w, height: h, channels: 3,
                                storage: (0..<(w * h * 3)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let out = Resampler.downscale(img, to: Size(width: w / fx, height: h / fy))
        #expect(out.size == Size(width: w / fx, height: h / fy))
        for oy in 0..<out.height {
            for ox in 0..<out.width {
                for c in 0..<3 {
                    var sum = 0
                    for y in 0..<fy { for x in 0..<fx { sum += Int(img[ox * fx + x, oy * fy + y, c]) } }
                    let mean = Double(sum) / Double(fx * fy)
                    #expect(abs(Double(out[ox, oy, c]) - mean) <= 0.5 + 1e-3)
                }
            }
        }
    }

    @Test func fractionalFactorKeepsFlatImage() {
        let img = Raster<UInt8>(width: 30, height: 20, channels: 3, repeating: 77)
        let out = Resampler.downscale(img, to: Size(width: 13, height: 7))
        #expect(out.storage.allSatisfy { $0 == 77 })
    }
}
