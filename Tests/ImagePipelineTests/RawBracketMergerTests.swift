import CaptureCore
import Foundation
import Testing
@testable import ImagePipeline

/// `RawBracketMerger`: a bracket's raw frames merged into one frame of wider range, aligned and without ghosts.
@Suite struct RawBracketMergerTests {
    /// A 128 × 96 grey scene (0.1 of the middle frame's range, a darker 0.04 half) with a bright patch at 3.2× the
    /// middle frame's range, optionally with a 16 px white square at `square`, seen at `exposure` × the middle's.
    static func frame(exposure: Double, square: Int? = nil, shift: Int = 0, seed: UInt64) -> RawImage {
        var truth = Fixtures.flat(width: 128, height: 96, SIMD3(repeating: 0.1))
        for y in 0..<96 {
            for x in 0..<128 {
                let sx = x + shift
                var level: Float = sx < 64 ? 0.1 : 0.04
                if sx >= 80, sx < 112, y >= 16, y < 48 { level = 3.2 }
                if let square, sx >= square, sx < square + 16, y >= 60, y < 76 { level = 0.8 }
                for c in 0..<3 { truth[x, y, c] = level * Float(exposure) }
            }
        }
        return Fixtures.raw(from: truth, noise: (2e-5, 1e-7), seed: seed)
    }

    /// The merged frame's value at (x, y) in the middle frame's units (1.0 = its clip level).
    static func value(_ merged: RawImage, x: Int, y: Int, widest: Double) -> Double {
        (Double(merged.bayer[x, y]) - 512) / (65_535 - 512) * widest
    }

    /// A green sample's level for the scene's 1.0 (the fixture's colour matrix and neutral scale each channel), from
    /// the middle frame's 0.1 grey.
    static func greenScale(_ middle: RawImage) -> Double {
        let samples = (0..<10).map { (Double(middle.bayer[11 + 2 * $0, 40]) - 512) / (16_383 - 512) }
        return samples.reduce(0, +) / 10 / 0.1
    }

    @Test func theDarkFrameFillsWhatTheOthersClipped() throws {
        let frames = [Self.frame(exposure: 0.25, seed: 1), Self.frame(exposure: 1, seed: 2), Self.frame(exposure: 4, seed: 3)]
        let (merged, shifts) = try #require(RawBracketMerger.merge(frames, exposures: [0.25, 1, 4], reference: 1))
        #expect(shifts.allSatisfy { $0 == (0, 0) })
        let k = Self.greenScale(frames[1])
        // The bright patch, clipped in the middle and bright frames, at its true 3.2 from the dark frame.
        let bright = Self.value(merged, x: 97, y: 30, widest: 4) / k
        #expect(abs(bright / 3.2 - 1) < 0.03, "bright patch \(bright)")
        // The shadows at their level, less noisy than the middle frame alone (the bright frame counts most there).
        let shadow = (0..<16).map { Self.value(merged, x: 65 + 2 * $0, y: 80, widest: 4) / k }
        let middle = (0..<16).map { (Double(frames[1].bayer[65 + 2 * $0, 80]) - 512) / (16_383 - 512) / k }
        func sd(_ v: [Double]) -> Double {
            let m = v.reduce(0, +) / Double(v.count)
            let squares = v.map { ($0 - m) * ($0 - m) }
            return (squares.reduce(0, +) / Double(v.count)).squareRoot()
        }
        let shadowMean: Double = shadow.reduce(0, +) / 16
        #expect(abs(shadowMean / 0.04 - 1) < 0.05, "shadow \(shadowMean)")
        let shadowSD = sd(shadow), middleSD = sd(middle)
        #expect(shadowSD < middleSD, "shadow σ \(shadowSD) vs middle \(middleSD)")
        // Rendered at the middle frame's brightness: 2 EV of baseline exposure more, 16-bit.
        #expect(merged.baselineExposure == 2 && merged.whiteLevel == 65_535 && merged.bitDepth == 16)
        #expect(merged.exposure.frameCount == 3)
    }

    @Test func aShiftedFrameIsAlignedAndAMovingSquareLeavesNoGhost() throws {
        // The dark frame shifted by 4 px; the bright frame sees a square that is elsewhere in the middle one.
        let frames = [Self.frame(exposure: 0.25, square: 20, shift: -4, seed: 1), Self.frame(exposure: 1, square: 20, seed: 2),
                      Self.frame(exposure: 4, square: 60, seed: 3)]
        let (merged, shifts) = try #require(RawBracketMerger.merge(frames, exposures: [0.25, 1, 4], reference: 1))
        #expect(shifts[0] == (4, 0) && shifts[2] == (0, 0), "\(shifts)")
        // Where the bright frame saw the square, the middle frame's grey stands (0.04 there), not a ghost of it.
        let k = Self.greenScale(frames[1])
        let ghost = Self.value(merged, x: 67, y: 66, widest: 4) / k
        #expect(abs(ghost / 0.04 - 1) < 0.15, "ghost region \(ghost)")
        // The square itself, where the middle and dark frames saw it.
        let square = Self.value(merged, x: 27, y: 66, widest: 4) / k
        #expect(abs(square / 0.8 - 1) < 0.05, "square \(square)")
    }

    /// A deep blue patch clips only the blue samples of the middle frame: the dark frame, which holds it, is not taken
    /// for a ghost (a clipped quad is a lower bound, not a difference), and the patch keeps its red and green.
    @Test func aPatchClippedInOneChannelComesFromTheDarkFrame() throws {
        func frame(_ exposure: Float, seed: UInt64) -> RawImage {
            var truth = Fixtures.flat(width: 64, height: 64, SIMD3(repeating: 0.1 * exposure))
            for y in 16..<48 { for x in 16..<48 { truth[x, y, 0] = 0.15 * exposure; truth[x, y, 1] = 0.3 * exposure; truth[x, y, 2] = 2.5 * exposure } }
            return Fixtures.raw(from: truth, noise: (2e-5, 1e-7), seed: seed)
        }
        let frames = [frame(0.25, seed: 1), frame(1, seed: 2)]
        let middleBlueMax = frames[1].bayer.storage.max() ?? 0
        #expect(middleBlueMax >= frames[1].clipCode, "the middle frame clips somewhere")
        let (merged, _) = try #require(RawBracketMerger.merge(frames, exposures: [0.25, 1], reference: 1))
        // Green at the patch's centre from the dark frame (× 4), not white.
        let green = (Double(merged.bayer[33, 32]) - 512) / (65_535 - 512) * 4
        let darkGreen = (Double(frames[0].bayer[33, 32]) - 512) / (16_383 - 512) * 4
        #expect(abs(green / darkGreen - 1) < 0.05, "merged green \(green), dark frame's \(darkGreen)")
        #expect(green < 3, "not white: \(green)")
    }

    /// Odd sizes: the last column and row (no whole quad) are the reference's samples in the new range.
    @Test func anOddLastColumnAndRowKeepTheReference() throws {
        let frames = [0.25, 1.0].enumerated().map { k, e in
            Fixtures.raw(from: Fixtures.flat(width: 33, height: 25, SIMD3(repeating: Float(0.2 * e))), seed: UInt64(k + 1))
        }
        let (merged, _) = try #require(RawBracketMerger.merge(frames, exposures: [0.25, 1], reference: 1))
        for (x, y) in [(32, 3), (5, 24), (32, 24)] {
            let expected = (Double(frames[1].bayer[x, y]) - 512) / (16_383 - 512)
            #expect(abs(Self.value(merged, x: x, y: y, widest: 4) - expected) < 1e-3, "(\(x), \(y))")
        }
    }

    @Test func mismatchedFramesGiveNothing() {
        let a = Self.frame(exposure: 1, seed: 1)
        let small = Fixtures.raw(from: Fixtures.flat(width: 32, height: 32, SIMD3(repeating: 0.1)))
        #expect(RawBracketMerger.merge([a, small], exposures: [1, 2], reference: 0) == nil)
        #expect(RawBracketMerger.merge([a, a], exposures: [1, 0], reference: 0) == nil)
        #expect(RawBracketMerger.merge([a], exposures: [1], reference: 0) == nil)
        #expect(RawBracketMerger.merge([a, a], exposures: [1, 2], reference: 2) == nil)
    }
}
