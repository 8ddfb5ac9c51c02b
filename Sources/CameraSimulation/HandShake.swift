import CaptureCore
import Foundation

/// A smooth, seeded angular trajectory of a hand-held phone: a slow body sway plus hand tremor,
/// each axis a sum of sinusoids with random amplitudes and phases (≈ 0.45 mrad RMS travel per 0.1 s).
struct HandShake: Sendable {
    private var frequencies: [Double] = [0.37, 1.3, 3.1, 6.7, 10.9]           // Hz
    private static let amplitudes: [Double] = [1.8e-3, 0.36e-3, 0.15e-3, 0.05e-3, 0.025e-3]  // rad
    private var yaw: [(amplitude: Double, phase: Double)] = []
    private var pitch: [(amplitude: Double, phase: Double)] = []

    init(seed: UInt64) {
        var rng = RandomSource(seed: seed, stream: 0x5AA_C0DE)
        for (i, a) in HandShake.amplitudes.enumerated() {
            _ = i
            yaw.append((a * (0.7 + 0.6 * rng.nextUniformDouble()), 2 * Double.pi * rng.nextUniformDouble()))
            pitch.append((a * (0.7 + 0.6 * rng.nextUniformDouble()), 2 * Double.pi * rng.nextUniformDouble()))
        }
        for i in frequencies.indices { frequencies[i] *= 0.9 + 0.2 * rng.nextUniformDouble() }
    }

    /// (yaw, pitch) in radians at session time `t`.
    func angles(at t: Double) -> SIMD2<Double> {
        var r = SIMD2<Double>(0, 0)
        for i in frequencies.indices {
            let w = 2 * Double.pi * frequencies[i] * t
            r.x += yaw[i].amplitude * sin(w + yaw[i].phase)
            r.y += pitch[i].amplitude * sin(w + pitch[i].phase)
        }
        return r
    }

    /// (yaw, pitch) rates in radians per second at session time `t`.
    func angularVelocity(at t: Double) -> SIMD2<Double> {
        var r = SIMD2<Double>(0, 0)
        for i in frequencies.indices {
            let omega = 2 * Double.pi * frequencies[i], w = omega * t
            r.x += yaw[i].amplitude * omega * cos(w + yaw[i].phase)
            r.y += pitch[i].amplitude * omega * cos(w + pitch[i].phase)
        }
        return r
    }

    /// The motion kernel of an exposure as integer-offset taps: sampling the still image at
    /// (x + dx, y + dy) with these weights reproduces the average along the path of `offset` (pixels at
    /// session time t; bilinear splats).
    static func kernel(start: Double, duration: Double, offset: (Double) -> SIMD2<Double>) -> [ShakeTap] {
        // Path extent from a coarse look decides how finely to sample it.
        var lo = offset(start), hi = lo
        for k in 1...8 {
            let o = offset(start + duration * Double(k) / 8)
            lo = pointwiseMin(lo, o); hi = pointwiseMax(hi, o)
        }
        let extent = max(hi.x - lo.x, hi.y - lo.y)
        let count = min(256, max(1, Int(extent * 4) + 1))
        var weights: [SIMD2<Int>: Double] = [:]
        for k in 0..<count {
            let o = offset(start + duration * (Double(k) + 0.5) / Double(count))
            let fx = o.x.rounded(.down), fy = o.y.rounded(.down)
            let ax = o.x - fx, ay = o.y - fy, ix = Int(fx), iy = Int(fy)
            let w = 1 / Double(count)
            weights[SIMD2(ix, iy), default: 0] += w * (1 - ax) * (1 - ay)
            weights[SIMD2(ix + 1, iy), default: 0] += w * ax * (1 - ay)
            weights[SIMD2(ix, iy + 1), default: 0] += w * (1 - ax) * ay
            weights[SIMD2(ix + 1, iy + 1), default: 0] += w * ax * ay
        }
        return weights.filter { $0.value > 1e-6 }
            .map { ShakeTap(dx: $0.key.x, dy: $0.key.y, weight: Float($0.value)) }
            .sorted { ($0.dy, $0.dx) < ($1.dy, $1.dx) }
    }
}

