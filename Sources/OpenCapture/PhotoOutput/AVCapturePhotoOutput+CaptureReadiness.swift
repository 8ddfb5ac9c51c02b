extension AVCapturePhotoOutput {
    /// Whether the output can take a photo now (Apple's `AVCapturePhotoOutput.CaptureReadiness`).
    public enum CaptureReadiness: Int, Sendable {
        case sessionNotRunning = 0, ready = 1, notReadyMomentarily = 2, notReadyWaitingForCapture = 3,
             notReadyWaitingForProcessing = 4
    }

    /// `.sessionNotRunning` until the output is in a running session with a camera, then `.ready`.
    /// Difference: OpenCapture queues requests instead of refusing them while the sensor is busy,
    /// so it never reports the `notReady…` states.
    public var captureReadiness: CaptureReadiness {
        guard session?.isRunning == true, connections.first?.isActive == true else { return .sessionNotRunning }
        return .ready
    }
}
