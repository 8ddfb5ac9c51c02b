/// Live Photo auto-trimming's motion test: the phone swings when its gyroscope reads a turn faster than
/// `swingRate`. A hand holding still turns at most ≈ 0.015 rad/s (`HandShake`); raising or lowering a phone
/// turns it at 1–3 rad/s.
package enum LivePhotoTrimming {
    /// 0.35 rad/s ≈ 20°/s.
    package static let swingRate = 0.35

    /// Whether the gyroscope (`angularVelocity`, nil without one) reads a swing in [`start`, `end`], sampled
    /// every 4 ms as a phone's gyroscope reports.
    package static func swings(from start: Double, to end: Double, angularVelocity: (Double) -> SIMD2<Double>?) -> Bool {
        var t = start
        while t <= end {
            guard let rate = angularVelocity(t) else { return false }
            if (rate * rate).sum() > swingRate * swingRate { return true }
            t += 0.004
        }
        return false
    }
}
