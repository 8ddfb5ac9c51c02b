import Foundation
import Testing
@testable import CaptureCore

/// `LocalToneMap`'s grid from a raw frame, against a plain quad-by-quad reference (the map's behaviour on scenes is
/// tested with the ISP in ImagePipelineTests).
@Suite struct LocalToneMapGridTests {
    /// A raw frame with every code from black to past the clip level, in noise, at a size whose cells hold 20+ quads
    /// a row (the eight-at-a-time path and its tail both run), odd in both directions.
    static func raw(width: Int, height: Int, cfa: CFAPattern) -> RawImage {
        var random = RandomSource(seed: 11)
        var bayer = Raster<UInt16>(width: width, height: height, channels: 1)
        for i in bayer.storage.indices {
            // Mostly a smooth ramp in log, with noise; some samples at the white level.
            let x = i % width, y = i / width
            let level = 64 + Int(4000 * pow(Double(x + y) / Double(width + height), 3))
            bayer.storage[i] = random.next() % 50 == 0 ? 4095 : UInt16(min(4095, max(0, level + Int(random.next() % 41) - 20)))
        }
        return RawImage(bayer: bayer, cfa: cfa, bitDepth: 12, blackLevel: [64, 64, 64, 64], whiteLevel: 4095,
                        asShotNeutral: SIMD3(0.5, 1, 0.6), cameraToSRGB: Matrix3.identity,
                        noiseProfile: [(1e-4, 1e-6)], exposure: ExposureRecord(duration: 1.0 / 60, iso: 100))
    }

    /// The grids cell by cell: Σ log2, count and clipped count per cell and bin, each a sum of `LocalToneMap.partials`
    /// partial sums over the quads at those intervals along the cell's rows, added in order.
    static func reference(_ raw: RawImage, cell: Int, scale: Double) -> [[Float]] {
        let w = raw.width, h = raw.height, bins = LocalToneMap.binCount
        let greens = (0..<4).filter { raw.cfa.colors[$0] == 1 }.map { ($0 / 2) * w + $0 % 2 }
        let range = Float(raw.whiteLevel) - 64, factor = Float(scale / Double(2 * range)), clip = raw.clipCode
        let columns = (w + cell - 1) / cell, rows = (h + cell - 1) / cell
        let partials = LocalToneMap.partials
        var sums = [Float](repeating: 0, count: columns * rows * bins * partials), counts = sums, clipped = sums
        let s = raw.bayer.storage
        for j in 0..<rows {
            for i in 0..<columns {
                let k = j * columns + i
                for y in stride(from: j * cell, to: min(h, j * cell + cell) & ~1, by: 2) {
                    for x in stride(from: i * cell, to: min(w, i * cell + cell) & ~1, by: 2) {
                        let top = y * w + x, slot = (k * partials + (x - i * cell) / 2 % partials) * bins
                        let value = (Float(s[top + greens[0]]) + Float(s[top + greens[1]]) - 128) * factor
                        let l = LocalToneMap.fastLog2(max(value, 1.0 / 65_536))
                        let bin = min(max(Int((l - LocalToneMap.lowest) / LocalToneMap.binWidth), 0), bins - 1)
                        if max(s[top], s[top + 1], s[top + w], s[top + w + 1]) >= clip {
                            clipped[slot + bin] += 1
                        } else {
                            sums[slot + bin] += l
                            counts[slot + bin] += 1
                        }
                    }
                }
            }
        }
        return [sums, counts, clipped].map { grid in
            (0..<(columns * rows * bins)).map { index in
                let k = index / bins, bin = index % bins
                var total = grid[k * partials * bins + bin]
                for p in 1..<partials { total += grid[(k * partials + p) * bins + bin] }
                return total
            }
        }
    }

    @Test(arguments: [CFAPattern.rggb, .grbg])
    func theGridIsExactlyTheQuadByQuadSums(cfa: CFAPattern) {
        let raw = Self.raw(width: 2003, height: 999, cfa: cfa)
        let cell = LocalToneMap.cellSize(width: raw.width, height: raw.height)
        #expect(cell / 2 > 8)
        let grids = LocalToneMap.accumulate(raw, cell: cell, scale: 3, shading: nil)
        let expected = Self.reference(raw, cell: cell, scale: 3)
        #expect(grids[1].reduce(0, +) + grids[2].reduce(0, +) == Float(1001 * 499))
        #expect(grids[2].reduce(0, +) > 1000)
        for g in 0..<3 { #expect(grids[g] == expected[g]) }
    }
}
