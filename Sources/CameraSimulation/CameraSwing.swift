import Foundation

/// A deliberate movement of the phone on top of the hand shake, such as lowering it after the shot: the view
/// turns by `angles` (yaw, pitch in radians; positive pitch tilts the phone toward the floor, so the picture
/// moves up) from `start` over `duration` seconds on the session clock, easing in and out (smoothstep).
///
/// Frames exposed during a swing blur along its path. The scene render covers the camera's view only, so what
/// turns in from beyond its edge repeats the edge pixels (a stretched, blurred edge), an approximation that
/// matters only for the frames of the swing itself.
public struct CameraSwing: Sendable, Hashable {
    public var start: Double
    public var duration: Double
    public var angles: SIMD2<Double>

    public init(start: Double, duration: Double = 0.5, angles: SIMD2<Double>) {
        self.start = start
        self.duration = max(1e-3, duration)
        self.angles = angles
    }

    /// A phone lowered after the shot: it tilts `degrees` toward the floor over `duration` seconds.
    public static func lowering(at start: Double, degrees: Double = 40, duration: Double = 0.5) -> CameraSwing {
        CameraSwing(start: start, duration: duration, angles: SIMD2(0, degrees * .pi / 180))
    }

    private func progress(_ t: Double) -> Double { min(1, max(0, (t - start) / duration)) }

    /// (yaw, pitch) turned so far at session time `t`, radians.
    public func angles(at t: Double) -> SIMD2<Double> {
        let u = progress(t)
        return angles * (u * u * (3 - 2 * u))
    }

    /// (yaw, pitch) rate at `t`, radians per second (what a gyroscope reads of the swing).
    public func angularVelocity(at t: Double) -> SIMD2<Double> {
        let u = progress(t)
        guard u > 0 && u < 1 else { return .zero }
        return angles * (6 * u * (1 - u) / duration)
    }
}
