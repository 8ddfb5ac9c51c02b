import CaptureCore
import Foundation
import Testing
@testable import ImagePipeline

@Suite struct RawFrameMergerTests {
    /// A textured scene larger than the frames, cropped at `offset`.
    static func crop(_ scene: Raster<Float>, x0: Int, y0: Int, size: Int) -> Raster<Float> {
        var out = Raster<Float>(width: size, height: size, channels: 3)
        for y in 0..<size { for x in 0..<size { for c in 0..<3 { out[x, y, c] = scene[x + x0, y + y0, c] } } }
        return out
    }

    /// Non-periodic texture: random values on a 10-pixel grid, bilinearly interpolated.
    static let scene: Raster<Float> = {
        var rng = RandomSource(seed: 99)
        let grid = (0..<(22 * 22)).map { _ in 0.1 + 0.5 * Double(rng.nextUniform()) }
        var img = Raster<Float>(width: 200, height: 200, channels: 3)
        for y in 0..<200 {
            for x in 0..<200 {
                let gx = x / 10, gy = y / 10, fx = Double(x % 10) / 10, fy = Double(y % 10) / 10
                let top = grid[gy * 22 + gx] * (1 - fx) + grid[gy * 22 + gx + 1] * fx
                let bottom = grid[(gy + 1) * 22 + gx] * (1 - fx) + grid[(gy + 1) * 22 + gx + 1] * fx
                let v = top * (1 - fy) + bottom * fy
                for c in 0..<3 { img[x, y, c] = Float(v) * [1, 0.9, 0.8][c] }
            }
        }
        return img
    }()

    @Test func findsKnownEvenShift() {
        let a = Fixtures.raw(from: Self.crop(Self.scene, x0: 20, y0: 20, size: 128), noise: (1e-3, 1e-5), seed: 1)
        let b = Fixtures.raw(from: Self.crop(Self.scene, x0: 26, y0: 16, size: 128), noise: (1e-3, 1e-5), seed: 2)
        let shift = RawFrameMerger.estimateShift(a, b)
        // a(x, y) = scene(x + 20, y + 20) = b(x − 6, y + 4)
        #expect(shift.dx == -6 && shift.dy == 4)
        let zero = RawFrameMerger.estimateShift(a, a)
        #expect(zero.dx == 0 && zero.dy == 0)
    }

    @Test func mergeLowersNoiseByFrameCount() {
        let n = 4
        let offsets = [(20, 20), (22, 18), (16, 24), (20, 26)]
        let clean = Fixtures.raw(from: Self.crop(Self.scene, x0: 20, y0: 20, size: 128))
        let frames = (0..<n).map { i in
            Fixtures.raw(from: Self.crop(Self.scene, x0: offsets[i].0, y0: offsets[i].1, size: 128),
                         noise: (2e-3, 2e-5), seed: UInt64(10 + i))
        }
        let merged = RawFrameMerger.merge(frames)
        for i in 0..<n {
            let s = RawFrameMerger.estimateShift(frames[0], frames[i])
            #expect(s.dx == 20 - offsets[i].0 && s.dy == 20 - offsets[i].1, "frame \(i): \(s)")
        }
        #expect(merged.exposure.frameCount == n)
        #expect(abs(merged.noiseProfile[0].scale - 2e-3 / Double(n)) < 1e-12)
        func variance(_ r: RawImage) -> Double {
            var sum = 0.0, count = 0.0
            for y in 16..<112 { for x in 16..<112 {
                let d = Double(r.bayer[x, y]) - Double(clean.bayer[x, y])
                sum += d * d; count += 1
            } }
            return sum / count
        }
        let ratio = variance(frames[0]) / variance(merged)
        #expect(ratio > Double(n) * 0.8 && ratio < Double(n) * 1.2, "variance ratio \(ratio)")
    }
}

@Suite struct RawFrameMergerMotionTests {
    /// Four frames of a still scene (shifted as a hand does) in which a bright patch moves: it is where the
    /// first frame has it, and elsewhere in each other frame.
    @Test func aMovingPatchDoesNotGhost() {
        let offsets = [(20, 20), (22, 18), (16, 24), (20, 26)]
        let patches = [(24, 24), (72, 30), (40, 80), (88, 88)]  // in frame coordinates of frame 0's view
        let noise = (scale: 2e-3, offset: 2e-5)
        func frame(_ i: Int, patch: (Int, Int)?, seed: UInt64?) -> RawImage {
            var view = RawFrameMergerTests.crop(RawFrameMergerTests.scene, x0: offsets[i].0, y0: offsets[i].1, size: 128)
            if let patch {
                // The patch sits at patch + (20, 20) in the scene, i.e. moved with the scene in each frame.
                for y in 0..<24 { for x in 0..<24 {
                    let fx = patch.0 + 20 - offsets[i].0 + x, fy = patch.1 + 20 - offsets[i].1 + y
                    if fx >= 0, fx < 128, fy >= 0, fy < 128 { for c in 0..<3 { view[fx, fy, c] = 0.85 } }
                } }
            }
            return seed.map { Fixtures.raw(from: view, noise: noise, seed: $0) } ?? Fixtures.raw(from: view)
        }
        let frames = (0..<4).map { frame($0, patch: patches[$0], seed: UInt64(40 + $0)) }
        let truth = frame(0, patch: patches[0], seed: nil)  // the first frame's view, without noise
        let range = 16383.0 - 512
        let merged = RawFrameMerger.merge(frames)
        let plain = RawFrameMergerMotionTests.plainAverage(frames)
        /// Mean signed error over the patch's square (noise averages out; a ghost does not), normalised.
        func bias(_ r: RawImage, at p: (Int, Int)) -> Double {
            var total = 0.0
            for y in p.1..<(p.1 + 24) { for x in p.0..<(p.0 + 24) { total += Double(r.bayer[x, y]) - Double(truth.bayer[x, y]) } }
            return total / (24 * 24) / range
        }
        for p in patches.dropFirst() {
            let ghost = bias(plain, at: p), left = bias(merged, at: p)
            // Averaging shows a quarter-strength patch; the robust merge leaves none.
            #expect(ghost > 0.05, "plain average at \(p): \(ghost)")
            #expect(abs(left) < 0.005, "robust merge at \(p): \(left) (plain: \(ghost))")
        }
        // The patch stays, at full strength, where the first frame saw it (averaging fades it to a quarter).
        #expect(bias(plain, at: patches[0]) < -0.1)
        #expect(abs(bias(merged, at: patches[0])) < 0.005, "\(bias(merged, at: patches[0]))")
        // Away from the motion the merge still averages the noise away (about 4× lower variance).
        var before = 0.0, after = 0.0
        for y in 100..<124 { for x in 4..<28 {
            let t = Double(truth.bayer[x, y])
            before += (Double(frames[0].bayer[x, y]) - t) * (Double(frames[0].bayer[x, y]) - t)
            after += (Double(merged.bayer[x, y]) - t) * (Double(merged.bayer[x, y]) - t)
        } }
        #expect(before / after > 2.5, "variance ratio \(before / after)")
    }

    /// The merge as it was before the robust rule: every overlapping frame counts equally.
    static func plainAverage(_ frames: [RawImage]) -> RawImage {
        let shifts = frames.map { RawFrameMerger.estimateShift(frames[0], $0) }
        var out = frames[0]
        let w = out.width, h = out.height
        for y in 0..<h { for x in 0..<w {
            var sum = 0.0, n = 0.0
            for (i, s) in shifts.enumerated() where x + s.dx >= 0 && x + s.dx < w && y + s.dy >= 0 && y + s.dy < h {
                sum += Double(frames[i].bayer[x + s.dx, y + s.dy]); n += 1
            }
            out.bayer[x, y] = UInt16((sum / n).rounded())
        } }
        return out
    }
}
