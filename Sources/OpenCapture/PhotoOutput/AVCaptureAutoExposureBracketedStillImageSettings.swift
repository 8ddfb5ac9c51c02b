import Foundation

/// A bracket shot exposed by auto exposure shifted by a bias in EV (Apple's
/// `AVCaptureAutoExposureBracketedStillImageSettings`): +1 EV collects twice the light.
///
/// `@unchecked Sendable`: every stored property is an immutable `let`.
public class AVCaptureAutoExposureBracketedStillImageSettings: AVCaptureBracketedStillImageSettings, @unchecked Sendable {
    /// The bias in EV, or `AVCaptureExposureTargetBiasCurrent`.
    public let exposureTargetBias: Float

    required init(exposureTargetBias: Float) {
        self.exposureTargetBias = exposureTargetBias
        super.init()
    }

    /// A shot at the metered exposure shifted by `exposureTargetBias` EV.
    public class func autoExposureSettings(exposureTargetBias: Float) -> Self {
        Self(exposureTargetBias: exposureTargetBias)
    }
}
