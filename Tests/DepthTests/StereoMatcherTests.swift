import CaptureCore
@testable import Depth
import Testing

@Suite struct StereoMatcherTests {
    static let parameters = StereoMatcher.Parameters(minDisparity: 0, disparityCount: 32)

    /// Share of `pixels` where the map is finite and within `tolerance` of the truth, and share finite.
    static func score(_ map: Raster<Float>, _ truth: Raster<Float>, tolerance: Float, where keep: (Int, Int) -> Bool)
        -> (bad: Double, density: Double) {
        var considered = 0, matched = 0, bad = 0
        for y in 0..<map.height {
            for x in 0..<map.width where keep(x, y) {
                considered += 1
                guard map[x, y].isFinite else { continue }
                matched += 1
                if abs(map[x, y] - truth[x, y]) > tolerance { bad += 1 }
            }
        }
        return (Double(bad) / Double(max(1, matched)), Double(matched) / Double(max(1, considered)))
    }

    @Test func randomDotStepIsFoundWithFewBadPixels() throws {
        let pair = StereoFixtures.randomDotStep()
        let map = try StereoMatcher(parameters: Self.parameters).match(left: pair.left, right: pair.right)
        #expect(map.size == pair.left.size)
        // Visible, unoccluded pixels away from the image border (the census window needs 4 px).
        let result = Self.score(map, pair.truth, tolerance: 1) { x, y in
            !pair.occluded[x, y] && x >= 16 + 4 && x < 156 && y >= 3 && y < 117
        }
        #expect(result.bad < 0.02, "bad-1 \(result.bad)")
        #expect(result.density > 0.95, "density \(result.density)")
        // Both layers are found.
        #expect(abs(map[85, 60] - 16) < 0.5 && abs(map[30, 20] - 8) < 0.5)
    }

    @Test func leftRightCheckTurnsOccludedPixelsToNaN() throws {
        let pair = StereoFixtures.randomDotStep()
        let checked = try StereoMatcher(parameters: Self.parameters).match(left: pair.left, right: pair.right)
        var unchecked = Self.parameters
        unchecked.lrTolerance = nil
        unchecked.uniqueness = 0
        unchecked.speckleWindow = 0
        let raw = try StereoMatcher(parameters: unchecked).match(left: pair.left, right: pair.right)
        var occluded = 0, rejected = 0, rawRejected = 0, keptWrong = 0
        for y in 0..<checked.height { for x in 0..<checked.width where pair.occluded[x, y] {
            occluded += 1
            if checked[x, y].isNaN { rejected += 1 } else if abs(checked[x, y] - 8) > 1 { keptWrong += 1 }
            if raw[x, y].isNaN { rawRejected += 1 }
        } }
        #expect(occluded == 8 * 50)
        // Most occluded pixels are rejected (72 %); of those kept most carry the hidden background's own
        // disparity, the rest (11 %) the foreground's, next to its edge (SGM's edge fattening).
        #expect(Double(rejected) / Double(occluded) > 0.65, "\(rejected) of \(occluded) occluded pixels rejected")
        #expect(Double(keptWrong) / Double(occluded) < 0.15, "\(keptWrong) occluded pixels kept with a wrong value")
        #expect(rawRejected == 0)
    }

    @Test func rightReferenceIsTheMirroredProblem() throws {
        let pair = StereoFixtures.randomDotStep()
        let matcher = StereoMatcher(parameters: Self.parameters)
        let right = try matcher.match(left: pair.left, right: pair.right, reference: .right)
        let mirrored = StereoFixtures.mirrored(try matcher.match(left: StereoFixtures.mirrored(pair.right),
                                                                 right: StereoFixtures.mirrored(pair.left)))
        #expect(right.storage.elementsEqual(mirrored.storage) { $0 == $1 || ($0.isNaN && $1.isNaN) })
        // And it is the right view's truth: the square at x − 16, the background elsewhere.
        #expect(abs(right[85 - 16, 60] - 16) < 0.5 && abs(right[140, 20] - 8) < 0.5)
        #expect(right[100, 60].isNaN || abs(right[100, 60] - 8) < 0.5)
    }

    @Test(arguments: [StereoMatcher.SubpixelFit.equiangular, .parabola])
    func slantedPlaneHasSmallSubpixelError(fit: StereoMatcher.SubpixelFit) throws {
        let pair = StereoFixtures.slantedPlane()
        var parameters = Self.parameters
        parameters.subpixel = fit
        let map = try StereoMatcher(parameters: parameters).match(left: pair.left, right: pair.right)
        var total: Double = 0, n = 0
        for y in 4..<76 { for x in 24..<190 where map[x, y].isFinite {
            total += Double(abs(map[x, y] - pair.truth[x, y])); n += 1
        } }
        let mean = total / Double(max(1, n))
        print("slanted plane, \(fit): mean |error| \(mean) px over \(n) px")
        #expect(n > 10_000)
        #expect(mean < 0.25)
    }

    @Test func bandsWithMarginsAgreeWithOneBand() throws {
        let pair = StereoFixtures.randomDotStep()
        var one = Self.parameters
        one.bandMemoryBudget = 1 << 30
        var many = Self.parameters
        many.bandMemoryBudget = 160 * 32 * 2 * 20   // 20 rows per band
        let a = try StereoMatcher(parameters: one).match(left: pair.left, right: pair.right)
        let b = try StereoMatcher(parameters: many).match(left: pair.left, right: pair.right)
        let same = zip(a.storage, b.storage).filter { $0 == $1 || ($0.isNaN && $1.isNaN) }.count
        #expect(Double(same) / Double(a.storage.count) > 0.99)
    }

    @Test func minimumDisparityShiftsTheSearch() throws {
        let pair = StereoFixtures.randomDotStep(background: 40, foreground: 48)
        let map = try StereoMatcher(parameters: .init(minDisparity: 30, disparityCount: 32)).match(left: pair.left, right: pair.right)
        #expect(abs(map[85, 60] - 48) < 0.5 && abs(map[100, 20] - 40) < 0.5)
        // Left of the smallest disparity nothing can match.
        #expect((0..<120).allSatisfy { map[10, $0].isNaN })
    }

    @Test func matchesBeyondTheSearchRangeAreUnknownNotClamped() throws {
        // The foreground's 48 px lie beyond a search of 30 ..< 46: unknown, not 45; the background (40) is found.
        let pair = StereoFixtures.randomDotStep(background: 40, foreground: 48)
        let map = try StereoMatcher(parameters: .init(minDisparity: 30, disparityCount: 16)).match(left: pair.left, right: pair.right)
        #expect(abs(map[100, 20] - 40) < 0.5)
        let foreground = (50..<70).map { map[85, $0] }
        #expect(foreground.filter(\.isNaN).count >= 18, "\(foreground)")
        #expect(!map.storage.contains { $0 > 45 })
    }

    @Test func badInputsThrowTypedErrors() {
        let a = Raster<Float>(width: 20, height: 10), b = Raster<Float>(width: 21, height: 10)
        #expect(throws: DepthError.self) { try StereoMatcher().match(left: a, right: b) }
        #expect(throws: DepthError.self) { try StereoMatcher().match(left: Raster<Float>(width: 20, height: 10, channels: 3), right: a) }
        #expect(throws: DepthError.self) { try StereoMatcher(parameters: .init(disparityCount: 0)).match(left: a, right: a) }
        #expect(throws: DepthError.self) { try StereoMatcher(parameters: .init(p1: 10, p2: 5)).match(left: a, right: a) }
        #expect(throws: DepthError.self) { try StereoMatcher().match(left: Raster<Float>(width: 0, height: 0), right: Raster<Float>(width: 0, height: 0)) }
    }

    @Test func flatImagesGiveNoConfidentMatches() throws {
        // No texture, no information: every disparity ties, and the uniqueness check rejects ties.
        let flat = Raster<Float>(width: 64, height: 48, repeating: 0.5)
        let map = try StereoMatcher(parameters: Self.parameters).match(left: flat, right: flat)
        #expect(map.storage.allSatisfy { $0.isNaN })
    }

    @Test func medianNetworkMatchesSorting() {
        var rng = RandomSource(seed: 1)
        for _ in 0..<1000 {
            let v = (0..<9).map { _ in Float(Int(rng.nextUniform() * 6)) }
            let m = DisparityCleanup.median9((v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]))
            #expect(m == v.sorted()[4])
        }
    }
}
