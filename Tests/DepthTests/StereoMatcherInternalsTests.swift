import CaptureCore
@testable import Depth
import Testing

/// The matcher's speed-ups that must not change a single disparity: UInt8 band sums, the packed
/// byte layout, and the speckle flood.
@Suite struct StereoMatcherInternalsTests {
    /// The random-dot pair's census codes and smoothed luma, as `StereoMatcher` builds them.
    static func inputs(minDisparity: Int = 0) -> (codes: ([UInt32], [UInt32]), luma: [UInt8], width: Int, height: Int) {
        let pair = StereoFixtures.randomDotStep()
        let w = pair.left.width, h = pair.left.height
        let (l8, r8) = StereoPreprocessing.quantizedPair(pair.left, pair.right)
        let ls = StereoPreprocessing.smoothed(l8, width: w, height: h)
        let rs = StereoPreprocessing.smoothed(r8, width: w, height: h)
        return ((StereoPreprocessing.census(ls, width: w, height: h), StereoPreprocessing.census(rs, width: w, height: h)), ls, w, h)
    }

    @Test(arguments: [(0, 32, 96), (3, 40, 96), (0, 24, 60)])
    func narrowBandSumsGiveTheSameDisparitiesAsInt16(minDisparity: Int, count: Int, p2: Int) {
        let input = Self.inputs()
        var parameters = StereoMatcher.Parameters(minDisparity: minDisparity, disparityCount: count, p2: p2)
        parameters.bandMemoryBudget = input.width * 48 * 2 * 30   // several bands, so margins are exercised too
        var narrow = SemiGlobalMatching(width: input.width, height: input.height, parameters: parameters)
        #expect(narrow.narrowSums, "P2 ≤ 96 with 4 paths fits the top-down sums in a byte")
        let a = narrow.match(leftCodes: input.codes.0, rightCodes: input.codes.1, leftLuma: input.luma)
        narrow.narrowSums = false
        let b = narrow.match(leftCodes: input.codes.0, rightCodes: input.codes.1, leftLuma: input.luma)
        #expect(a.count == b.count)
        #expect(zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
        #expect(a.filter { $0.isFinite }.count > a.count / 2)
    }

    @Test func largePenaltiesAndEightPathsKeepInt16Sums() {
        #expect(!SemiGlobalMatching(width: 8, height: 8, parameters: .init(p2: 97)).narrowSums)
        #expect(!SemiGlobalMatching(width: 8, height: 8, parameters: .init(paths: .eight)).narrowSums)
    }

    @Test func packedBytesRoundTrip() {
        var v = SIMD16<Int16>()
        for i in 0..<16 { v[i] = Int16(i * 17 % 255) }
        #expect(SemiGlobalMatching.widened(SemiGlobalMatching.narrowed(v)) == v)
    }

    @Test func specklesSmallerThanTheWindowAreRemoved() {
        // A 10 × 10 map at 5 with a 2 × 2 island at 9 and one NaN; window 5 removes only the island.
        var map = [Float](repeating: 5, count: 100)
        for (x, y) in [(3, 3), (4, 3), (3, 4), (4, 4)] { map[y * 10 + x] = 9 }
        map[0] = .nan
        DisparityCleanup.removeSpeckles(&map, width: 10, height: 10, window: 5, range: 1)
        #expect(map[3 * 10 + 3].isNaN && map[4 * 10 + 4].isNaN && map[0].isNaN)
        #expect(map.filter { $0.isNaN }.count == 5)
        // Values within `range` of a neighbour join its region: a ramp of small steps is one region.
        var ramp = (0..<100).map { Float($0 % 10) * 0.5 }
        DisparityCleanup.removeSpeckles(&ramp, width: 10, height: 10, window: 50, range: 0.5)
        #expect(ramp.allSatisfy { $0.isFinite })
    }

    @Test func quantisationRoundsHalfAwayFromZero() {
        // 0…1 onto 0…255: 0.5 / 255 steps land exactly between codes.
        let values: [Float] = [0, 0.5 / 255, 1.5 / 255, 127.5 / 255, 1, .nan]
        let image = Raster<Float>(width: 6, height: 1, storage: values)
        let (q, _) = StereoPreprocessing.quantizedPair(image, image)
        let expected = values.map { v in v.isFinite ? UInt8(max(0, min(255, (v * 255).rounded()))) : 0 }
        #expect(q == expected)
    }
}
