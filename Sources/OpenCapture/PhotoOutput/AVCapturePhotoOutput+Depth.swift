import CaptureCore
import Foundation

/// Depth, portrait effects matte and calibration delivery (Apple's "Capturing Photos with Depth").
extension AVCapturePhotoOutput {
    /// True when the camera measures depth (the dual camera by stereo, the TrueDepth camera by
    /// structured light) and its active format has depth formats (the photo preset's does); false
    /// for single cameras and without a camera.
    public var isDepthDataDeliverySupported: Bool {
        guard let device = currentDevice else { return false }
        return device.depthCapability != nil && device.activeDepthDataFormat != nil
    }

    /// Lets settings ask for depth. Setting true while unsupported is reported to `DeviceDiagnostics`
    /// and ignored (Apple raises); the value reads false whenever depth becomes unsupported (another
    /// camera or format). Changing it reconfigures the pipeline for later requests only: a request
    /// already made completes as it was asked.
    public var isDepthDataDeliveryEnabled: Bool {
        get {
            let supported = isDepthDataDeliverySupported
            return supported && withOutputLock { depthDeliveryRequested }
        }
        set {
            if newValue && !isDepthDataDeliverySupported {
                DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled("Depth data delivery"))
                return
            }
            withOutputLock { depthDeliveryRequested = newValue }
        }
    }

    /// True while depth delivery is enabled on a camera that finds people (both depth cameras do).
    public var isPortraitEffectsMatteDeliverySupported: Bool { isDepthDataDeliveryEnabled }

    /// Lets settings ask for the portrait effects matte; needs depth delivery enabled (else reported and ignored).
    public var isPortraitEffectsMatteDeliveryEnabled: Bool {
        get {
            let supported = isPortraitEffectsMatteDeliverySupported
            return supported && withOutputLock { matteDeliveryRequested }
        }
        set {
            if newValue && !isPortraitEffectsMatteDeliverySupported {
                DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled("Portrait effects matte delivery"))
                return
            }
            withOutputLock { matteDeliveryRequested = newValue }
        }
    }

    /// True while depth delivery is enabled (calibration comes with depth).
    public var isCameraCalibrationDataDeliverySupported: Bool { isDepthDataDeliveryEnabled }
}
