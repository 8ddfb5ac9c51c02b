import Foundation

/// A bracket shot with an exact duration and ISO (Apple's
/// `AVCaptureManualExposureBracketedStillImageSettings`).
///
/// `@unchecked Sendable`: every stored property is an immutable `let`.
public class AVCaptureManualExposureBracketedStillImageSettings: AVCaptureBracketedStillImageSettings, @unchecked Sendable {
    /// The duration, or `AVCaptureExposureDurationCurrent`.
    public let exposureDuration: CMTime
    /// The ISO, or `AVCaptureISOCurrent`.
    public let iso: Float

    required init(exposureDuration: CMTime, iso: Float) {
        self.exposureDuration = exposureDuration
        self.iso = iso
        super.init()
    }

    /// A shot with exactly this duration and ISO (each may be its "current" sentinel).
    public class func manualExposureSettings(exposureDuration: CMTime, iso: Float) -> Self {
        Self(exposureDuration: exposureDuration, iso: iso)
    }
}
