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
