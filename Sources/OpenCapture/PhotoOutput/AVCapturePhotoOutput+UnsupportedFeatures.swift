import Foundation

/// Output features OpenCapture does not simulate yet. Each reports unsupported, as Apple's output
/// does on hardware without the feature; turning one on is reported to `DeviceDiagnostics` and
/// ignored (Apple raises `NSInvalidArgumentException` when a feature is enabled while unsupported).
extension AVCapturePhotoOutput {
    private func refuse(_ feature: String, _ requested: Bool) {
        if requested { DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled(feature)) }
    }

    /// Virtual-device fusion is not simulated: false.
    public var isVirtualDeviceFusionSupported: Bool { false }
    public var isDualCameraFusionSupported: Bool { false }
    public var isVirtualDeviceConstituentPhotoDeliverySupported: Bool { false }
    /// Stays false; `true` is reported.
    public var isVirtualDeviceConstituentPhotoDeliveryEnabled: Bool {
        get { false }
        set { refuse("Virtual device constituent photo delivery", newValue) }
    }
    public var isContentAwareDistortionCorrectionSupported: Bool { false }
    /// Stays false; `true` is reported.
    public var isContentAwareDistortionCorrectionEnabled: Bool {
        get { false }
        set { refuse("Content-aware distortion correction", newValue) }
    }
    /// Responsive capture needs zero shutter lag: false.
    public var isResponsiveCaptureSupported: Bool { false }
    /// Stays false; `true` is reported.
    public var isResponsiveCaptureEnabled: Bool {
        get { false }
        set { refuse("Responsive capture", newValue) }
    }
    /// Fast capture prioritisation needs responsive capture: false.
    public var isFastCapturePrioritizationSupported: Bool { false }
    /// Stays false; `true` is reported.
    public var isFastCapturePrioritizationEnabled: Bool {
        get { false }
        set { refuse("Fast capture prioritization", newValue) }
    }
    /// Deferred photo delivery (proxies) is not simulated: false.
    public var isAutoDeferredPhotoDeliverySupported: Bool { false }
    /// Stays false; `true` is reported.
    public var isAutoDeferredPhotoDeliveryEnabled: Bool {
        get { false }
        set { refuse("Deferred photo delivery", newValue) }
    }
    /// Constant colour (flash-based colour measurement) is not simulated: false.
    public var isConstantColorSupported: Bool { false }
    /// Stays false; `true` is reported.
    public var isConstantColorEnabled: Bool {
        get { false }
        set { refuse("Constant color", newValue) }
    }
    /// Shutter-sound suppression: false (there is no shutter sound to suppress yet).
    public var isShutterSoundSuppressionSupported: Bool { false }
}
