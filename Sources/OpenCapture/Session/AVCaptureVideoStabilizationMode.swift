/// Video stabilisation modes a video connection can prefer (Apple's `AVCaptureVideoStabilizationMode`, with Apple's raw
/// values). The simulated formats support only `.off`: see `AVCaptureConnection.isVideoStabilizationSupported`.
public enum AVCaptureVideoStabilizationMode: Int, Sendable, CaseIterable {
    /// No stabilisation.
    case off = 0
    /// Stabilisation with little added latency.
    case standard = 1
    /// Stronger stabilisation over a wider crop, for recording.
    case cinematic = 2
    /// Stronger still, with more latency.
    case cinematicExtended = 3
    /// Stabilisation of the preview only, cheaper on power (iOS 17).
    case previewOptimized = 4
    /// The extended cinematic mode with a larger crop (iOS 18).
    case cinematicExtendedEnhanced = 5
    /// The most appropriate mode for the format and camera (a preference only: never the active mode).
    case auto = -1
}
