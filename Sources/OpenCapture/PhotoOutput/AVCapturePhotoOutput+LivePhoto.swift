import Foundation

/// Live Photos: a still plus a movie of about 3 s around it (1.5 s before, 1.5 s after), cut from the
/// session's frame stream, paired by a content identifier in the still's Apple MakerNote and the
/// movie's metadata, with a still-image-time track at the photo's moment.
extension AVCapturePhotoOutput {
    /// True when the output is in a session with a camera, the `.photo` preset, and no movie file output.
    public var isLivePhotoCaptureSupported: Bool {
        guard currentDevice != nil, let session else { return false }
        return session.sessionPreset == .photo && !session.outputs.contains { $0 is AVCaptureMovieFileOutput }
    }

    /// Whether Live Photos can be taken; keeps its value, and reads false while unsupported (Apple resets it).
    /// Turning it on while unsupported is reported to `DeviceDiagnostics` and ignored (Apple raises). Changing
    /// it while running reconfigures the stream, as Apple's pipeline rebuild does.
    public var isLivePhotoCaptureEnabled: Bool {
        get { withOutputLock { livePhotoRequested } && isLivePhotoCaptureSupported }
        set {
            if newValue && !isLivePhotoCaptureSupported {
                DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled("Live Photo capture (needs the photo preset and no movie file output)"))
                return
            }
            let changed = withOutputLock { () -> Bool in
                defer { livePhotoRequested = newValue }
                return livePhotoRequested != newValue
            }
            if changed { session?.outputNeedsStreamChange() }
        }
    }

    /// While true, new Live Photo requests are refused and movies in progress end at the moment of
    /// suspension. Setting it with Live Photo capture off is reported and ignored (Apple raises). It resets
    /// when the session stops.
    public var isLivePhotoCaptureSuspended: Bool {
        get { withOutputLock { livePhotoSuspended } }
        set {
            if newValue && !isLivePhotoCaptureEnabled {
                DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled("Live Photo capture"))
                return
            }
            let now = session?.frameStream?.now
            withOutputLock {
                if newValue && !livePhotoSuspended { livePhotoSuspensionTime = now }
                if !newValue { livePhotoSuspensionTime = nil }
                livePhotoSuspended = newValue
            }
        }
    }

    /// Whether Live Photo movies are trimmed where the phone swings (default true): the movie starts after the
    /// last swing before the still (the phone being raised) and ends before the first frame after the still in
    /// which it swings (being lowered), as the simulated gyroscope reads it (over ≈ 20°/s). Read per request.
    /// See `AVCaptureDevice.simulateCameraSwing(at:pitchDegrees:yawDegrees:duration:)`.
    public var isLivePhotoAutoTrimmingEnabled: Bool {
        get { withOutputLock { livePhotoAutoTrimming } }
        set { withOutputLock { livePhotoAutoTrimming = newValue } }
    }

    /// Codecs for Live Photo movies: H.264 (the default, first) and HEVC; empty while unsupported.
    public var availableLivePhotoVideoCodecTypes: [AVVideoCodecType] {
        isLivePhotoCaptureSupported ? [.h264, .hevc] : []
    }
}
