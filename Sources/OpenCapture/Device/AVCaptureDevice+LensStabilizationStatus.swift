extension AVCaptureDevice {
    /// Whether lens (optical) stabilisation was active during a bracketed shot.
    public enum LensStabilizationStatus: Int, Sendable {
        case unsupported = 0, off = 1, active = 2, outOfRange = 3, unavailable = 4
    }
}
