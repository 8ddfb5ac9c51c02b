extension AVCaptureSession {
    /// Why a session was interrupted (Apple's `AVCaptureSession.InterruptionReason`), the integer under
    /// `AVCaptureSessionInterruptionReasonKey` in `.AVCaptureSessionWasInterrupted`'s `userInfo`, with Apple's raw values.
    /// Declared for handlers that read it: nothing on Linux interrupts a session, so OpenCapture never posts one.
    public enum InterruptionReason: Int, Sendable {
        /// The app went to the background while using a camera.
        case videoDeviceNotAvailableInBackground = 1
        /// The audio hardware was taken (a phone call, an alarm).
        case audioDeviceInUseByAnotherClient = 2
        /// The camera was taken by another client.
        case videoDeviceInUseByAnotherClient = 3
        /// The app shares the screen with others (Slide Over, Split View, picture in picture).
        case videoDeviceNotAvailableWithMultipleForegroundApps = 4
        /// The system's pressure (heat, power) reached shutdown level.
        case videoDeviceNotAvailableDueToSystemPressure = 5
        /// Sensitive content was detected and the system mitigated it (iOS 26).
        case sensitiveContentMitigationActivated = 6
    }
}
