import Foundation

/// Receives a video data output's frames (Apple's `AVCaptureVideoDataOutputSampleBufferDelegate`).
/// Both methods are optional. They run on the queue given to `setSampleBufferDelegate(_:queue:)`,
/// one at a time, in presentation order.
public protocol AVCaptureVideoDataOutputSampleBufferDelegate: AnyObject {
    /// A new frame. Return promptly: while this runs, later frames are dropped (when the output
    /// discards late frames) or wait.
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
    /// A frame was dropped because the delegate was still busy with an earlier one. The buffer carries the
    /// dropped frame's timing (and, unlike Apple's, its pixels).
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureVideoDataOutputSampleBufferDelegate {
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
    public func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}
