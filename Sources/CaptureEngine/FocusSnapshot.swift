/// Where the lens was focused when the request was made: read once, with the rest of the device's
/// state, so later focus changes belong to later requests.
package struct FocusSnapshot: Sendable, Equatable {
    /// Focus distance, metres (+∞ at lens position 1).
    package var distance: Double
    /// Apple's lens position, 0 (nearest) … 1 (infinity).
    package var lensPosition: Double
    /// The point focused on, Apple's convention: (0, 0) top-left, (1, 1) bottom-right of the
    /// unrotated landscape image.
    package var pointOfInterest: SIMD2<Double>

    package init(distance: Double, lensPosition: Double, pointOfInterest: SIMD2<Double>) {
        self.distance = distance
        self.lensPosition = lensPosition
        self.pointOfInterest = pointOfInterest
    }
}
