import CaptureCore
import Testing
@testable import Fusion

@Suite struct ExposureAlignmentTests {
    /// The reference is a crop of a larger textured image; the others are crops moved by known shifts and
    /// rendered 0.3× and 3× as bright (clipped), so thresholds at fixed grey levels would fail.
    static func bracket(shifts: [(Int, Int)], gains: [Double]) -> [Raster<UInt8>] {
        let big = 256, size = 192, origin = 32
        let texture = TestScenes.texture(width: big, height: big, seed: 11, squares: 60)
        let scene = TestScenes.capture(TestScenes.radiance(texture, width: big, height: big) { _, _ in 0.35 }, exposure: 1)
        return zip(shifts, gains).map { shift, gain in
            // image(x + dx, y + dy) = scene(origin + x, origin + y) ⇒ image(x, y) = scene(origin − dx + x, …).
            let crop = TestScenes.crop(scene, x: origin - shift.0, y: origin - shift.1, width: size, height: size)
            return gain == 1 ? crop : TestScenes.scaled(crop, gain: gain)
        }
    }

    @Test func recoversKnownShiftsAcrossExposures() throws {
        let shifts = [(0, 0), (7, -3), (-12, 5)]
        let images = Self.bracket(shifts: shifts, gains: [1, 0.3, 3])
        let found = try ExposureAlignment().estimateShifts(images, reference: 0)
        #expect(found.map { [$0.dx, $0.dy] } == shifts.map { [$0.0, $0.1] })
    }

    @Test func framesOfAnotherSceneDisagreeAfterAlignment() throws {
        // One scene at three exposures and shifts: a few percent at most. A frame of another texture: about half.
        let images = Self.bracket(shifts: [(0, 0), (7, -3), (-12, 5)], gains: [1, 0.3, 3])
        var alignment = ExposureAlignment()
        let (shifts, shared) = try alignment.estimate(images, reference: 0)
        #expect(shifts.map { [$0.dx, $0.dy] } == [[0, 0], [7, -3], [-12, 5]])
        #expect(shared[0] == 0 && shared[1] < 0.1 && shared[2] < 0.1, "\(shared)")
        let texture = TestScenes.texture(width: 192, height: 192, seed: 99, squares: 60)
        let other = TestScenes.capture(TestScenes.radiance(texture, width: 192, height: 192) { _, _ in 0.35 }, exposure: 1)
        let mixed = [images[0], images[1], other]
        let found = try alignment.estimate(mixed, reference: 0).disagreement
        #expect(found[1] < 0.1 && found[2] > 0.35, "\(found)")
        // Measured at a coarser finest level (as fuse searches), the same verdicts.
        alignment.finestLevel = 2
        let coarse = try alignment.estimate(mixed, reference: 0).disagreement
        #expect(coarse[1] < 0.1 && coarse[2] > 0.35, "\(coarse)")
    }

    @Test func referenceNeedNotBeFirst() throws {
        let images = Self.bracket(shifts: [(3, 1), (0, 0), (-1, -6)], gains: [3, 1, 0.3])
        let found = try ExposureAlignment().estimateShifts(images, reference: 1)
        #expect(found.map { [$0.dx, $0.dy] } == [[3, 1], [0, 0], [-1, -6]])
    }

    @Test func alignedImagesMatchTheReference() throws {
        let images = Self.bracket(shifts: [(0, 0), (5, -4)], gains: [1, 1])
        let aligned = try ExposureAlignment().align(images, reference: 0)
        // Inside the region that did not need edge replication the pixels are identical.
        for y in 8..<180 { for x in 8..<180 { #expect(aligned[1][x, y, 0] == images[0][x, y, 0]) } }
    }

    /// Searching down to quarter resolution only: shifts in multiples of 4, each within 2 px of the true one.
    @Test func aCoarseSearchStopsAtItsLevel() throws {
        let shifts = [(0, 0), (7, -3), (-12, 5)]
        let images = Self.bracket(shifts: shifts, gains: [1, 0.3, 3])
        var alignment = ExposureAlignment()
        alignment.finestLevel = 2
        let found = try alignment.estimateShifts(images, reference: 0)
        for (f, s) in zip(found, shifts) {
            #expect(f.dx % 4 == 0 && f.dy % 4 == 0 && abs(f.dx - s.0) <= 2 && abs(f.dy - s.1) <= 2, "\(f) for \(s)")
        }
        alignment.finestLevel = -1
        #expect(throws: FusionError.self) { try alignment.estimateShifts(images, reference: 0) }
    }

    @Test func badInputThrows() {
        let a = Raster<UInt8>(width: 32, height: 32, channels: 3), b = Raster<UInt8>(width: 31, height: 32, channels: 3)
        #expect(throws: FusionError.sizeMismatch) { try ExposureAlignment().estimateShifts([a, b], reference: 0) }
        #expect(throws: FusionError.noImages) { try ExposureAlignment().align([], reference: 0) }
        #expect(throws: FusionError.referenceOutOfRange(2)) { try ExposureAlignment().align([a, a], reference: 2) }
    }
}
