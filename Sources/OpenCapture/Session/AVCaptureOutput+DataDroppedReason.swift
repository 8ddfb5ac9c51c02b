extension AVCaptureOutput {
    /// Why a data output dropped a sample (Apple's `AVCaptureOutput.DataDroppedReason`).
    public enum DataDroppedReason: Int, Sendable {
        /// Nothing was dropped.
        case none = 0
        /// The sample could not be ready in time: the output was still busy with an earlier one.
        case lateData = 1
        /// Every buffer the output may hold was in use.
        case outOfBuffers = 2
        /// Something went wrong between samples (OpenCapture: measuring this one failed; the reason is reported
        /// to `DeviceDiagnostics`).
        case discontinuity = 3
    }
}
