import Foundation

/// Apple's current spellings of the session's notification names (iOS 18 SDK: class properties of `AVCaptureSession`,
/// where the `NSNotification.Name` constants such as `.AVCaptureSessionWasInterrupted` are deprecated); the same names.
extension AVCaptureSession {
    /// Posted once the session runs (`.AVCaptureSessionDidStartRunning`).
    public static let didStartRunningNotification = NSNotification.Name.AVCaptureSessionDidStartRunning
    /// Posted once the session has stopped (`.AVCaptureSessionDidStopRunning`).
    public static let didStopRunningNotification = NSNotification.Name.AVCaptureSessionDidStopRunning
    /// A runtime error (`.AVCaptureSessionRuntimeError`): never posted here.
    public static let runtimeErrorNotification = NSNotification.Name.AVCaptureSessionRuntimeError
    /// An interruption began (`.AVCaptureSessionWasInterrupted`, its reason under `AVCaptureSessionInterruptionReasonKey`):
    /// never posted here.
    public static let wasInterruptedNotification = NSNotification.Name.AVCaptureSessionWasInterrupted
    /// An interruption ended (`.AVCaptureSessionInterruptionEnded`): never posted here.
    public static let interruptionEndedNotification = NSNotification.Name.AVCaptureSessionInterruptionEnded
}
