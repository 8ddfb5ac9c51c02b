import Foundation

/// Apple's capture notifications, posted on `NotificationCenter.default` with the session or device as the object.
extension NSNotification.Name {
    /// Posted by `AVCaptureSession.startRunning()` once the session runs.
    public static let AVCaptureSessionDidStartRunning = NSNotification.Name("AVCaptureSessionDidStartRunningNotification")
    /// Posted by `AVCaptureSession.stopRunning()` once the session has stopped.
    public static let AVCaptureSessionDidStopRunning = NSNotification.Name("AVCaptureSessionDidStopRunningNotification")
    /// Declared for code that observes it; never posted: the simulated camera has no runtime failures (a failed request
    /// reports its error to its delegate).
    public static let AVCaptureSessionRuntimeError = NSNotification.Name("AVCaptureSessionRuntimeErrorNotification")
    /// Declared for code that observes it; never posted: nothing on Linux takes the camera from a session (no calls,
    /// no other app, no multitasking), so `isInterrupted` stays false.
    public static let AVCaptureSessionWasInterrupted = NSNotification.Name("AVCaptureSessionWasInterruptedNotification")
    /// Declared for code that observes it; never posted (see `AVCaptureSessionWasInterrupted`).
    public static let AVCaptureSessionInterruptionEnded = NSNotification.Name("AVCaptureSessionInterruptionEndedNotification")
    /// Posted by a device with `isSubjectAreaChangeMonitoringEnabled` when what it sees changes substantially: here when
    /// its simulated lighting changes or `simulateCameraSwing` turns the phone.
    public static let AVCaptureDeviceSubjectAreaDidChange = NSNotification.Name("AVCaptureDeviceSubjectAreaDidChangeNotification")
}

/// The `userInfo` key of `.AVCaptureSessionRuntimeError`'s error.
public let AVCaptureSessionErrorKey = "AVCaptureSessionErrorKey"

/// The `userInfo` key of `.AVCaptureSessionWasInterrupted`'s reason: an `NSNumber` holding an
/// `AVCaptureSession.InterruptionReason` raw value. Declared for handlers that read it; the notification is never
/// posted here.
public let AVCaptureSessionInterruptionReasonKey = "AVCaptureSessionInterruptionReasonKey"
