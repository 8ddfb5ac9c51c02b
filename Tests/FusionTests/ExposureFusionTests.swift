import CaptureCore
import Foundation
import Testing
@testable import Fusion

@Suite struct ExposureFusionTests {
    /// Left half dark (radiance ≈ 0.004), right half bright (≈ 1), both textured; an under (×0.5) and
    /// an over (×12) exposure, so each frame loses one half.
    static func underOverPair() -> (under: Raster<UInt8>, over: Raster<UInt8>) {
        let w = 192, h = 128
        let texture = TestScenes.texture(width: w, height: h, seed: 5)
        let scene = TestScenes.radiance(texture, width: w, height: h) { x, _ in x < w / 2 ? 0.004 : 1.0 }
        return (TestScenes.capture(scene, exposure: 0.5), TestScenes.capture(scene, exposure: 12))
    }

    @Test func keepsDetailInBrightAndDarkRegions() throws {
        let (under, over) = Self.underOverPair()
        let fused = try ExposureFusion().fuse([under, over])
        let dark = (8..<88, 8..<120), bright = (104..<184, 8..<120)
        func measures(_ image: Raster<UInt8>) -> (dark: Double, bright: Double) {
            (TestScenes.contrast(image, dark.0, dark.1), TestScenes.contrast(image, bright.0, bright.1))
        }
        let u = measures(under), o = measures(over), f = measures(fused)
        // Each single frame has lost one region; the fused image keeps both.
        #expect(f.dark > u.dark && f.bright > o.bright)
        #expect(min(f.dark, f.bright) > min(u.dark, u.bright))
        #expect(min(f.dark, f.bright) > min(o.dark, o.bright))
        func count(_ image: Raster<UInt8>, _ test: (UInt8) -> Bool) -> Int {
            stride(from: 1, to: image.storage.count, by: 3).filter { test(image.storage[$0]) }.count
        }
        #expect(count(fused) { $0 >= 254 } < count(over) { $0 >= 254 })
        #expect(count(fused) { $0 <= 8 } < count(under) { $0 <= 8 })
    }

    @Test func enfuseDefaultsAlsoFuse() throws {
        let (under, over) = Self.underOverPair()
        let fused = try ExposureFusion.enfuseDefaults.fuse([under, over])
        #expect(TestScenes.contrast(fused, 8..<88, 8..<120) > TestScenes.contrast(under, 8..<88, 8..<120))
    }

    /// enfuse's weights are the sum of its measures (its saved masks, `enfuse --save-masks`, read we·E + ws·S with S
    /// the HSL saturation): a neutral, well-exposed pixel counts, where the paper's product would give it none.
    @Test func enfuseDefaultsAddTheMeasures() {
        // Frame A: a neutral light grey (R = G = B = 200); frame B: a saturated red (250, 60, 60).
        let a = Raster<UInt8>(width: 4, height: 4, channels: 3, repeating: 200)
        var b = Raster<UInt8>(width: 4, height: 4, channels: 3, repeating: 60)
        for i in 0..<16 { b.storage[3 * i] = 250 }
        func gaussian(_ v: Double) -> Double { exp(-0.5 * pow((v / 255 - 0.5) / 0.2, 2)) }
        // enfuse's masks for them: E of the grey mean, + 0.2 × HSL saturation (B: chroma 190 / (255 − |310 − 255|)).
        let maskA = gaussian(200), maskB = gaussian(Double((250 + 60 + 60) / 3)) + 0.2 * 190.0 / 200.0
        let added = ExposureFusion.enfuseDefaults.computeWeights([a, b])
        #expect(abs(Double(added[0].row(1)[1]) - maskA / (maskA + maskB)) < 1e-5, "\(added[0].row(1)[1]) vs \(maskA / (maskA + maskB))")
        // Exposure per channel, weight 2: we · ∏ E (the weight once, not once per channel).
        var perChannel = ExposureFusion.enfuseDefaults
        (perChannel.measuresExposureOnGrey, perChannel.exposureWeight) = (false, 2)
        let e = { (v: Double) in gaussian(v) }
        let channelA = 2 * pow(e(200), 3), channelB = 2 * e(250) * e(60) * e(60) + 0.2 * 190.0 / 200.0
        let weighted = perChannel.computeWeights([a, b])
        #expect(abs(Double(weighted[0].row(1)[1]) - channelA / (channelA + channelB)) < 1e-5)
        var product = ExposureFusion.enfuseDefaults
        product.addsMeasures = false
        #expect(product.computeWeights([a, b])[0].row(1)[1] < 1e-6)
    }

    @Test func identicalImagesComeBackUnchanged() throws {
        let w = 100, h = 67
        let scene = TestScenes.radiance(TestScenes.texture(width: w, height: h, seed: 2), width: w, height: h) { x, _ in
            0.05 + Double(x) / 100
        }
        let image = TestScenes.capture(scene, exposure: 1)
        let fused = try ExposureFusion().fuse([image, image, image])
        let maxDifference = zip(fused.storage, image.storage).map { abs(Int($0) - Int($1)) }.max()!
        #expect(maxDifference <= 1)
    }

    @Test func progressNamesTheStages() throws {
        let image = Raster<UInt8>(width: 40, height: 30, channels: 3, repeating: 100)
        var stages: [String] = []
        _ = try ExposureFusion().fuse([image, image]) { stages.append($0) }
        #expect(stages.first == "weights" && stages.count >= 3)
    }

    @Test func tinyImagesFuseWithoutAPyramid() throws {
        let a = Raster<UInt8>(width: 3, height: 2, channels: 3, repeating: 20)
        let b = Raster<UInt8>(width: 3, height: 2, channels: 3, repeating: 128)
        let fused = try ExposureFusion().fuse([a, b])
        #expect(fused.storage.allSatisfy { $0 > 20 && $0 <= 128 })
    }

    @Test(arguments: [(1, 1), (1, 40), (40, 1), (9, 9), (17, 33), (37, 23)])
    func oddSizesFuseWithoutTrapping(size: (Int, Int)) throws {
        var random = RandomSource(seed: UInt64(size.0 * 1000 + size.1))
        let image = Raster<UInt8>(width: size.0, height: size.1, channels: 3,
                                  storage: (0..<(size.0 * size.1 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let fused = try ExposureFusion().fuse([image, TestScenes.scaled(image, gain: 2), image])
        #expect(fused.width == size.0 && fused.height == size.1 && fused.channels == 3)
        let same = try ExposureFusion().fuse([image, image])
        #expect(zip(same.storage, image.storage).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func badInputThrows() {
        let a = Raster<UInt8>(width: 32, height: 32, channels: 3), b = Raster<UInt8>(width: 32, height: 31, channels: 3)
        #expect(throws: FusionError.noImages) { try ExposureFusion().fuse([]) }
        #expect(throws: FusionError.sizeMismatch) { try ExposureFusion().fuse([a, b]) }
        let grey = Raster<UInt8>(width: 32, height: 32, channels: 1)
        #expect(throws: FusionError.unsupportedChannelCount(1)) { try ExposureFusion().fuse([grey, grey]) }
        #expect(throws: FusionError.self) { try ExposureFusion(exposureWidth: 0).fuse([a, a]) }
    }
}
