import CaptureCore
import Testing
@testable import ImagePipeline

@Suite struct AutoWhiteBalanceTests {
    @Test func greyWorldFindsTheNeutralOfAGreyScene() {
        var truth = Raster<Float>(width: 64, height: 64, channels: 3)
        for y in 0..<64 { for x in 0..<64 { for c in 0..<3 { truth[x, y, c] = 0.05 + 0.6 * Float(x + y) / 126 } } }
        // A clipped patch must not bias the estimate.
        for y in 0..<8 { for x in 0..<8 { for c in 0..<3 { truth[x, y, c] = 3 } } }
        let raw = Fixtures.raw(from: truth, neutral: SIMD3(0.55, 1, 0.72), noise: (1e-4, 1e-6))
        let n = AutoWhiteBalance.estimate(raw)
        #expect(n.y == 1)
        #expect(abs(n.x - 0.55) < 0.01 && abs(n.z - 0.72) < 0.01, "\(n)")
    }
}
