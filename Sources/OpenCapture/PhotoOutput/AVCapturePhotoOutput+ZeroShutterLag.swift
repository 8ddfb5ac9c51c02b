import Foundation

/// Zero shutter lag: while the session's frame stream runs (a video data output, a movie file output or
/// Live Photo capture keeps it running), a photo is the frame that was being exposed when `capturePhoto` was
/// called, so its `timestamp` may precede the call; without it the exposure starts when the sensor takes the
/// request. Not for manual exposure, brackets or the flash (as on iPhones). With no stream running, photos
/// keep OpenCapture's synthetic per-request clock (same seed and settings, same pixels) either way.
extension AVCapturePhotoOutput {
    /// True when the output is in a session with a simulated camera.
    public var isZeroShutterLagSupported: Bool {
        guard let device = currentDevice else { return false }
        return device.replay == nil
    }

    /// Default true (Apple's default for apps linked on iOS 17); reads false while unsupported. Turning it on while
    /// unsupported is reported to `DeviceDiagnostics` and ignored (Apple raises).
    public var isZeroShutterLagEnabled: Bool {
        get { withOutputLock { zeroShutterLagRequested } && isZeroShutterLagSupported }
        set {
            if newValue && !isZeroShutterLagSupported {
                DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled("Zero shutter lag"))
                return
            }
            withOutputLock { zeroShutterLagRequested = newValue }
        }
    }
}
