import CaptureCore
import Foundation

/// The one thing in the living room that moves: a wall clock's pendulum on the back wall, left of the
/// window, clear of the easel board and the near box in the back wide camera's view (outside the telephoto's). A brass bob on a dark
/// rod swings ±0.2 rad with a 2 s period, passing the bottom on every whole second of the session clock
/// (when `RoomSound` ticks). Photos and stream frames show it where it is during their exposure, blurred
/// by its motion and the camera's; it is seen by the back cameras only.
public struct Pendulum: Sendable {
    /// The pivot on the back wall, metres (world coordinates).
    public static let pivot = SIMD3<Double>(-1.95, 0.55, 3.985)
    public static let rodLength = 0.30
    public static let bobRadius = 0.045
    static let rodHalfWidth = 0.004
    public static let amplitude = 0.2
    public static let period = 2.0
    /// Linear albedos of the bob (brass) and the rod (dark wood), and of the plaster behind them.
    static let brass = SIMD3<Double>(0.72, 0.50, 0.20)
    static let rodAlbedo = SIMD3<Double>(0.06, 0.045, 0.035)
    static let plaster = SIMD3<Double>(0.58, 0.54, 0.47)

    /// The swing angle at session time `t` (0 at every whole second).
    public static func angle(at t: Double) -> Double { amplitude * sin(2 * .pi * t / period) }

    /// The bob's centre at session time `t`.
    public static func bobCenter(at t: Double) -> SIMD3<Double> {
        let a = angle(at: t)
        return pivot + SIMD3(sin(a), -cos(a), 0) * rodLength
    }
}

/// The pendulum as one exposure sees it: for a handful of moments across the exposure, where its bob
/// and rod fall on the readout (hand shake included), and per pixel the fraction of the exposure each
/// covers. Built per capture; rows outside `rows` are untouched.
struct PendulumOverlay: Sendable {
    /// Moments sampled across the exposure: bob centre, bob radius, rod ends (pixels), on this readout.
    struct Moment: Sendable {
        var bob: SIMD2<Double>
        var radius: Double
        var rodStart: SIMD2<Double>
        var rodEnd: SIMD2<Double>
        var rodHalfWidth: Double
    }
    let moments: [Moment]
    let rows: Range<Int>
    let columns: Range<Int>
    /// Camera-RGB electron rates of bob and rod (the wall's rate at the pivot, times albedo ratios).
    let bobRate: SIMD3<Float>
    let rodRate: SIMD3<Float>
    /// Depth of the pendulum (metres along the axis); pixels whose scene is nearer hide it.
    let depth: Float

    /// The overlay for an exposure from `start` for `duration` seconds, or nil when the pendulum is out of view.
    init?(geometry g: ViewGeometry, planes: SensorPlanes, start: Double, duration: Double, offset: (Double) -> SIMD2<Double>) {
        guard let pivotPixel = g.project(Pendulum.pivot) else { return nil }
        let q = Pendulum.pivot - g.origin
        let z = (q * g.forward).sum()
        let pixelsPerMetre = g.focalPixels / z
        let count = max(1, min(16, Int((duration * 240).rounded(.up))))
        var moments: [Moment] = []
        var lo = SIMD2<Double>(.infinity, .infinity), hi = -lo
        for k in 0..<count {
            let t = start + max(0, duration) * (Double(k) + 0.5) / Double(count)
            guard let bob = g.project(Pendulum.bobCenter(at: t)) else { return nil }
            let shift = offset(t)
            let m = Moment(bob: bob - shift, radius: Pendulum.bobRadius * pixelsPerMetre, rodStart: pivotPixel - shift,
                           rodEnd: bob - shift, rodHalfWidth: max(0.5, Pendulum.rodHalfWidth * pixelsPerMetre))
            moments.append(m)
            let reach = SIMD2(repeating: m.radius + 2)
            lo = pointwiseMin(lo, pointwiseMin(m.bob - reach, m.rodStart - reach))
            hi = pointwiseMax(hi, pointwiseMax(m.bob + reach, m.rodStart + reach))
        }
        let x0 = max(0, Int(lo.x.rounded(.down))), x1 = min(g.width, Int(hi.x.rounded(.up)) + 1)
        let y0 = max(0, Int(lo.y.rounded(.down))), y1 = min(g.height, Int(hi.y.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return nil }
        // The plaster's rate just beside the pivot carries the light the pendulum gets.
        let px = min(g.width - 1, max(0, Int(pivotPixel.x + 3 * moments[0].radius))), py = min(g.height - 1, max(0, Int(pivotPixel.y)))
        let i = py * g.width + px
        let wall = SIMD3<Float>(planes.rate[3 * i], planes.rate[3 * i + 1], planes.rate[3 * i + 2])
        func ratio(_ albedo: SIMD3<Double>) -> SIMD3<Float> { SIMD3<Float>(albedo / Pendulum.plaster) }
        self.moments = moments
        rows = y0..<y1
        columns = x0..<x1
        bobRate = wall * ratio(Pendulum.brass)
        rodRate = wall * ratio(Pendulum.rodAlbedo)
        depth = Float(z)
    }

    /// Fractions of the exposure (bob, rod) during which pixel (x, y)'s centre is covered, edges anti-aliased over a pixel.
    @inline(__always)
    func coverage(x: Int, y: Int) -> (bob: Float, rod: Float) {
        let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        var bob = 0.0, rod = 0.0
        for m in moments {
            let d = p - m.bob
            let bobCover = min(1, max(0, m.radius + 0.5 - (d * d).sum().squareRoot()))
            bob += bobCover
            // Distance to the rod segment.
            let axis = m.rodEnd - m.rodStart
            let along = min(1, max(0, ((p - m.rodStart) * axis).sum() / max(1e-9, (axis * axis).sum())))
            let e = p - (m.rodStart + axis * along)
            let rodCover = min(1, max(0, m.rodHalfWidth + 0.5 - (e * e).sum().squareRoot()))
            rod += rodCover * (1 - bobCover)
        }
        let n = Double(moments.count)
        return (Float(bob / n), Float(rod / n))
    }

    /// Blends the pendulum into one row of path-averaged electron rates (`means`, one CFA colour per pixel).
    func apply(row y: Int, means: UnsafeMutablePointer<Float>, colours: (Int, Int), sceneDepth: UnsafePointer<Float>, width: Int) {
        guard rows.contains(y) else { return }
        for x in columns {
            if sceneDepth[y * width + x] < depth - 0.05 { continue }     // something in front hides it
            let (bob, rod) = coverage(x: x, y: y)
            guard bob + rod > 0 else { continue }
            let c = (x & 1) == 0 ? colours.0 : colours.1
            means[x] = means[x] * (1 - bob - rod) + bob * bobRate[c] + rod * rodRate[c]
        }
    }

    /// The same blend for a camera-RGB rate (ground truth).
    @inline(__always)
    func blend(_ rate: SIMD3<Float>, x: Int, y: Int, sceneDepth: Float) -> SIMD3<Float> {
        guard rows.contains(y), columns.contains(x), sceneDepth >= depth - 0.05 else { return rate }
        let (bob, rod) = coverage(x: x, y: y)
        guard bob + rod > 0 else { return rate }
        return rate * (1 - bob - rod) + bobRate * bob + rodRate * rod
    }
}
