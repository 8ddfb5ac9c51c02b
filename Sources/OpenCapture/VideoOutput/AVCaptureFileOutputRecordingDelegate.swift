import Foundation

/// Receives a file output's recording events (Apple's `AVCaptureFileOutputRecordingDelegate`).
/// Called on a serial queue of the output's, never the main thread.
public protocol AVCaptureFileOutputRecordingDelegate: AnyObject {
    /// The first frame was written (optional).
    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    /// The recording ended and the file is complete (required). With an error whose
    /// `AVErrorRecordingSuccessfullyFinishedKey` is true (the maximum duration was reached) the file is
    /// still usable; otherwise nothing is left at `outputFileURL`.
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
                    error: Error?)
}

extension AVCaptureFileOutputRecordingDelegate {
    public func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {}
}
