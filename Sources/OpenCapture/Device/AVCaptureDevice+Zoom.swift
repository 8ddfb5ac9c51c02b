import Foundation

/// Zoom, as Apple's `AVCaptureDevice` declares it. Not simulated yet: every format reports `videoMaxZoomFactor`
/// 1, as Apple reports a format without zoom, so the available range is 1…1 and code that clamps to it (as Apple's
/// samples do) keeps the factor at 1. A factor or ramp target outside the range is reported to `DeviceDiagnostics`
/// and ignored (Apple raises).
extension AVCaptureDevice {
    /// The zoom factor (1 = no zoom). Setting it needs the configuration lock and a value within
    /// `minAvailableVideoZoomFactor…maxAvailableVideoZoomFactor` (here always 1).
    public var videoZoomFactor: CGFloat {
        get { 1 }
        set {
            guard requireConfigurationLock("videoZoomFactor") else { return }
            guard newValue >= minAvailableVideoZoomFactor, newValue <= maxAvailableVideoZoomFactor else {
                DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("videoZoomFactor \(newValue) (zoom is not simulated)"))
                return
            }
        }
    }

    /// The smallest zoom factor available now: 1.
    public var minAvailableVideoZoomFactor: CGFloat { 1 }

    /// The largest zoom factor available now: the active format's `videoMaxZoomFactor` (1: zoom is not simulated).
    public var maxAvailableVideoZoomFactor: CGFloat { activeFormat.videoMaxZoomFactor }

    /// Ramps the zoom factor to `factor` at `rate` (powers of two per second). Needs the configuration lock; the only
    /// available factor is 1, which the device is already at, so the ramp ends at once; other factors are reported
    /// and ignored.
    public func ramp(toVideoZoomFactor factor: CGFloat, withRate rate: Float) {
        guard requireConfigurationLock("ramp(toVideoZoomFactor:withRate:)") else { return }
        guard factor >= minAvailableVideoZoomFactor, factor <= maxAvailableVideoZoomFactor else {
            DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("ramp(toVideoZoomFactor:) \(factor) (zoom is not simulated)"))
            return
        }
    }

    /// Stops a zoom ramp where it is (none is ever in progress). Needs the configuration lock.
    public func cancelVideoZoomRamp() {
        _ = requireConfigurationLock("cancelVideoZoomRamp")
    }

    /// Whether a zoom ramp is in progress: always false.
    public var isRampingVideoZoom: Bool { false }
}

extension AVCaptureDevice.Format {
    /// The zoom factor above which the picture is upscaled: 1 (`videoMaxZoomFactor`, declared with the format, is 1).
    public var videoZoomFactorUpscaleThreshold: CGFloat { 1 }
}
