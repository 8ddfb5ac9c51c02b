import Foundation
import Testing
@testable import CaptureCore

/// `RadialWarp`: the fast resampler (knots in fixed point) against a direct bilinear read at `sourcePoint`.
@Suite struct RadialWarpTests {
    static let width = 301, height = 203

    /// A warp that shrinks red by up to 4 % at the corner (sources inside the image), leaves green and magnifies blue
    /// by 0.5 % (sources beyond the edges, which clamp).
    static let warp = RadialWarp(center: SIMD2(150.5, 101.5), normalisingRadius: 181, planes: 3) { plane, r in
        switch plane {
        case 0: return 1 - 0.04 * r * r
        case 1: return 1
        default: return 1.005
        }
    }

    /// Pseudo-random texture, every sample different from its neighbours (the hardest case for a position error).
    static func texture<T>(_ make: (Int) -> T) -> Raster<T> {
        Raster(width: width, height: height, channels: 3, storage: (0..<(width * height * 3)).map { make(($0 * 7919) % 1000) })
    }

    /// Bilinear read of plane `c` at `sourcePoint`, clamped like the warp: the reference.
    static func direct(_ image: Raster<Float>, x: Int, y: Int, plane c: Int) -> Float {
        let w = image.width, h = image.height
        let q = warp.sourcePoint(of: SIMD2(Double(x) + 0.5, Double(y) + 0.5), plane: c) - 0.5
        let qx = min(max(q.x, 0), Double(w - 1) - 1.0 / 512), qy = min(max(q.y, 0), Double(h - 1) - 1.0 / 512)
        let x0 = Int(qx), y0 = Int(qy)
        let fx = Float(qx - Double(x0)), fy = Float(qy - Double(y0))
        func at(_ xx: Int, _ yy: Int) -> Float { image.storage[(yy * w + xx) * 3 + c] }
        let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx
        let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx
        return top + (bottom - top) * fy
    }

    @Test func floatsMatchADirectBilinearReadEverywhereIncludingTheEdges() {
        let image = Self.texture { Float($0) / 1000 }
        let out = Self.warp.apply(image)
        var worst: Float = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                for c in 0..<3 {
                    let expected = c == 1 ? image.storage[(y * Self.width + x) * 3 + 1] : Self.direct(image, x: x, y: y, plane: c)
                    worst = max(worst, abs(out.storage[(y * Self.width + x) * 3 + c] - expected))
                }
            }
        }
        // Neighbouring samples differ by up to 1, so this bounds the position error: ≈ 0.01 px here, where 4 % of
        // distortion over a 181 px radius bends the positions between two knots 8 px apart (spacing² / 8 × curvature);
        // a phone lens over a 12 MP image bends them 200 times less.
        #expect(worst < 0.012, "largest difference \(worst)")
    }

    @Test func bytesMatchTheFloatWarpWithinRounding() {
        let bytes = Self.texture { UInt8($0 % 256) }
        let floats = Raster<Float>(width: bytes.width, height: bytes.height, channels: 3, storage: bytes.storage.map(Float.init))
        let a = Self.warp.apply(bytes), b = Self.warp.apply(floats)
        let worst = zip(a.storage, b.storage).map { abs(Float($0) - $1) }.max() ?? 0
        // 8-bit fractions: up to 1/256 px of position × a 255 step, plus rounding.
        #expect(worst <= 2.5, "largest difference \(worst)")
    }

    @Test func nanAwareKeepsMissingSamplesMissing() {
        var map = Raster<Float>(width: 40, height: 30, channels: 1, storage: [Float](repeating: 2, count: 1200))
        for y in 10..<20 { for x in 10..<20 { map.storage[y * 40 + x] = .nan } }
        let warp = RadialWarp(center: SIMD2(20, 15), normalisingRadius: 25, planes: 1) { _, r in 1 - 0.03 * r * r }
        let out = warp.apply(map, nanAware: true)
        #expect(out.storage.filter(\.isNaN).count > 50)
        #expect(out.storage.allSatisfy { $0.isNaN || $0 == 2 })
    }

    /// Rows between the exact grid rows are interpolated: within 16 / 65536 px of the exact knots for a
    /// strong phone-lens warp (4 % at the corner), equal on the grid rows, and an unmoved plane gets
    /// sample centres exactly on every row.
    @Test func interpolatedKnotRowsAgreeWithTheExactOnes() {
        let w = 1008, h = 756
        let lens = RadialWarp(center: SIMD2(500.25, 380.75), normalisingRadius: 630, planes: 3) { plane, r in
            plane == 1 ? 1 : 1 - 0.04 * r * r + (plane == 0 ? 0.0004 : -0.0004)
        }
        let knots = lens.knots(width: w, height: h, planes: 3)
        #expect(knots.activePlanes == [0, 2])
        var fast = [Int32](repeating: 0, count: 2 * knots.count), exact = fast
        var worst: Int32 = 0, worstOnGrid: Int32 = 0, identityExact = true
        for plane in 0..<3 {
            for y in -40..<(h + 40) {
                fast.withUnsafeMutableBufferPointer { f in
                    exact.withUnsafeMutableBufferPointer { e in
                        knots.fill(row: y, plane: plane, x: f.baseAddress!, y: f.baseAddress! + knots.count)
                        knots.exactFill(row: y, plane: plane, x: e.baseAddress!, y: e.baseAddress! + knots.count)
                    }
                }
                let error = zip(fast, exact).map { abs($0 - $1) }.max() ?? 0
                if plane == 1 {
                    identityExact = identityExact && (0..<knots.count).allSatisfy {
                        fast[$0] == Int32($0 * RadialWarp.knotSpacing) << 16 && fast[knots.count + $0] == Int32(y) << 16
                    }
                }
                if y % RadialWarp.knotSpacing == 0 { worstOnGrid = max(worstOnGrid, error) } else { worst = max(worst, error) }
            }
        }
        #expect(identityExact)
        #expect(worst > 0 && worst <= 16, "largest difference \(worst) / 65536 px")
        #expect(worstOnGrid == 0)
    }
    /// Between grid rows a knot is the quadratic through the exact knots of the three grid rows from the one above,
    /// rounded in 16.16 — computed in 32 bits for a phone lens and in 64 for a warp whose knots move hundreds of pixels
    /// between grid rows; both give the same values as the formula in 64 bits.
    @Test(arguments: [0.04, 40.0])
    func rowsBetweenGridRowsAreTheRoundedQuadratic(strength: Double) {
        let w = 400, h = 300
        let lens = RadialWarp(center: SIMD2(200.5, 150.5), normalisingRadius: 250, planes: 1) { _, r in 1 + strength * r * r }
        let knots = lens.knots(width: w, height: h, planes: 1)
        let n = knots.count
        var fast = [Int32](repeating: 0, count: 2 * n), rows = [[Int32]](repeating: fast, count: 3)
        var largestStep: Int64 = 0, checked = 0
        for y in 0..<(h - 16) where y % RadialWarp.knotSpacing != 0 {
            let t = Int64(y % RadialWarp.knotSpacing), first = y - y % RadialWarp.knotSpacing
            for r in 0..<3 {
                rows[r].withUnsafeMutableBufferPointer { e in
                    knots.exactFill(row: first + r * RadialWarp.knotSpacing, plane: 0, x: e.baseAddress!, y: e.baseAddress! + n)
                }
            }
            fast.withUnsafeMutableBufferPointer { f in knots.fill(row: y, plane: 0, x: f.baseAddress!, y: f.baseAddress! + n) }
            for k in 0..<(2 * n) {
                let a = Int64(rows[0][k]), b = Int64(rows[1][k]), c = Int64(rows[2][k])
                largestStep = max(largestStep, abs(b - a))
                let expected = Int32(clamping: a + (((b - a) * t * 16 + (c - 2 * b + a) * t * (t - 8) + 64) >> 7))
                #expect(fast[k] == expected, "row \(y) knot \(k)")
                checked += 1
            }
        }
        #expect(checked > 20_000)
        // The strong warp's knots move more than 2²³ (128 px) between grid rows somewhere: the 64-bit path ran.
        #expect(strength < 1 ? largestStep < 1 << 23 : largestStep > 1 << 23)
    }
}
