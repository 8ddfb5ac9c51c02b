import CaptureCore
import Foundation
import Testing
@testable import ImagePipeline

/// `PlanarWarpRow`: rows resampled at a warp's knots against a direct bilinear read at the warp's source point.
@Suite struct PlanarWarpRowTests {
    static let width = 203, height = 101

    /// Shrinks toward the centre by up to 3 % (sources inside) for plane 0, magnifies by 1 % (sources beyond the
    /// edges, which clamp) for plane 1.
    static let warp = RadialWarp(center: SIMD2(101.5, 50.5), normalisingRadius: 113, planes: 2) { plane, r in
        plane == 0 ? 1 - 0.03 * r * r : 1.01
    }

    static func direct(_ source: [Float], x: Int, y: Int, plane: Int) -> Float {
        let q = warp.sourcePoint(of: SIMD2(Double(x) + 0.5, Double(y) + 0.5), plane: plane) - 0.5
        let qx = min(max(q.x, 0), Double(width - 1) - 1.0 / 65536), qy = min(max(q.y, 0), Double(height - 1) - 1.0 / 65536)
        let x0 = Int(qx), y0 = Int(qy), fx = Float(qx - Double(x0)), fy = Float(qy - Double(y0))
        func at(_ xx: Int, _ yy: Int) -> Float { source[yy * width + xx] }
        let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx
        let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx
        return top + (bottom - top) * fy
    }

    @Test(arguments: [0, 1])
    func codesAndFloatsMatchADirectBilinearReadEverywhere(plane: Int) {
        let codes = (0..<(Self.width * Self.height)).map { UInt16(($0 * 7919) % 60_000) }
        let floats = codes.map { Float($0) }
        let knots = Self.warp.knots(width: Self.width, height: Self.height, planes: 2)
        let rowLimits = 0...(Int32(Self.height - 1) << 16 - 1)
        var worstCodes: Float = 0, worstFloats: Float = 0
        var kx = [Int32](repeating: 0, count: knots.count), ky = kx
        var fromCodes = [Float](repeating: 0, count: Self.width), fromFloats = fromCodes
        for y in 0..<Self.height {
            kx.withUnsafeMutableBufferPointer { kx in
                ky.withUnsafeMutableBufferPointer { ky in
                    knots.fill(row: y, plane: plane, x: kx.baseAddress!, y: ky.baseAddress!)
                    codes.withUnsafeBufferPointer { source in
                        fromCodes.withUnsafeMutableBufferPointer { out in
                            PlanarWarpRow.resample(knotsX: kx.baseAddress!, knotsY: ky.baseAddress!, width: Self.width,
                                                   source: source.baseAddress!, stride: Self.width, limitX: knots.limits.x,
                                                   rowLimits: rowLimits, scale: 0.5, offset: 3, into: out.baseAddress!)
                        }
                    }
                    floats.withUnsafeBufferPointer { source in
                        fromFloats.withUnsafeMutableBufferPointer { out in
                            PlanarWarpRow.resample(knotsX: kx.baseAddress!, knotsY: ky.baseAddress!, width: Self.width,
                                                   source: source.baseAddress!, stride: Self.width, limitX: knots.limits.x,
                                                   rowLimits: rowLimits, into: out.baseAddress!)
                        }
                    }
                }
            }
            for x in 0..<Self.width {
                let expected = Self.direct(floats, x: x, y: y, plane: plane)
                worstCodes = max(worstCodes, abs(fromCodes[x] - (expected * 0.5 + 3)))
                worstFloats = max(worstFloats, abs(fromFloats[x] - expected))
            }
        }
        // Neighbours differ by up to 60,000, so this bounds the position error by 0.012 px, as `RadialWarpTests` does
        // for the same knots: a 3 % warp over a 113 px radius bends the positions between knots 8 px apart by about
        // 0.01 px (a phone lens over a 12 MP image, 200 times less).
        #expect(worstFloats < 0.012 * 60_000, "largest difference \(worstFloats)")
        #expect(worstCodes < 0.006 * 60_000, "largest difference \(worstCodes)")
    }

    /// Steps of 0.85 px reach the last column (six columns in eight steps at the right edge) over a source that ends
    /// where a guard page begins: a read past the last sample faults instead of passing unseen. Values are the exact
    /// bilinear reads (rows 0 and 1 of two, positions 16.16).
    @Test(arguments: [Float(0.85), 1.0, 1.12])
    func theRightEdgeReadsNoFurtherThanTheLastSample(step: Float) throws {
        let w = 64, page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let memory = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != MAP_FAILED else { throw CancellationError() }
        defer { munmap(memory, 2 * page) }
        #expect(mprotect(memory + page, page, PROT_NONE) == 0)
        let source = (memory + page - 2 * w * 2).bindMemory(to: UInt16.self, capacity: 2 * w)
        for i in 0..<(2 * w) { source[i] = UInt16((i * 7919) % 60_000) }
        // Column positions ending exactly at the last one bilinear may start from (w − 2), y = 0.25 (rows 0 and 1).
        let count = w / RadialWarp.knotSpacing + 1
        let xs = (0..<count).map { k in Float(w - 2) - step * Float(w - 1 - k * RadialWarp.knotSpacing) }
        var kx = xs.map { Int32(($0 * 65536).rounded()) }, ky = [Int32](repeating: 1 << 14, count: count)
        var out = [Float](repeating: 0, count: w)
        let limitX = Int32(w - 1) << 16 - 1
        kx.withUnsafeMutableBufferPointer { kx in
            ky.withUnsafeMutableBufferPointer { ky in
                out.withUnsafeMutableBufferPointer { o in
                    PlanarWarpRow.resample(knotsX: kx.baseAddress!, knotsY: ky.baseAddress!, width: w, source: source, stride: w,
                                           limitX: limitX, rowLimits: 0...(1 << 16 - 1), into: o.baseAddress!)
                }
            }
        }
        for x in (w - 16)..<w {
            let px = min(max(Float(w - 2) - step * Float(w - 1 - x), 0), Float(limitX) / 65536)
            let x0 = Int(px), fx = px - Float(x0)
            func at(_ c: Int, _ r: Int) -> Float { Float(source[r * w + c]) }
            let top = at(x0, 0) + (at(x0 + 1, 0) - at(x0, 0)) * fx, bottom = at(x0, 1) + (at(x0 + 1, 1) - at(x0, 1)) * fx
            #expect(abs(out[x] - (top + (bottom - top) * 0.25)) < 0.02 * 60_000, "x \(x)")
        }
    }
}
