extension AVCapturePhotoOutput {
    /// Whether the output can take a photo now (Apple's `AVCapturePhotoOutput.CaptureReadiness`).
    public enum CaptureReadiness: Int, Sendable {
        case sessionNotRunning = 0, ready = 1, notReadyMomentarily = 2, notReadyWaitingForCapture = 3,
             notReadyWaitingForProcessing = 4
    }

    /// Whether a photo requested now would be taken at once (Apple's, iOS 17): `.sessionNotRunning` until the output
    /// is in a running session with an active camera connection; while a request is on (or waiting for) the sensor,
    /// `.notReadyWaitingForCapture` if it is a long capture (flash, a stabilised multi-frame merge, a bracket) and
    /// `.notReadyMomentarily` otherwise, until its `didCapturePhoto`; `.notReadyWaitingForProcessing` while
    /// `PhotoOutputReadiness.processingLimit` (4) photos are being developed; else `.ready`. Requests made while not
    /// ready are still queued and taken in order (Apple's output takes them too; the states are for shutter buttons).
    public var captureReadiness: CaptureReadiness {
        let running = session?.isRunning == true && connections.first?.isActive == true
        return withOutputLock { readiness.readiness(running: running) }
    }
}
