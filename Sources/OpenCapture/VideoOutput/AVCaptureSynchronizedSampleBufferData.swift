import Foundation

/// A video data output's frame in a synchronized collection (Apple's `AVCaptureSynchronizedSampleBufferData`).
public final class AVCaptureSynchronizedSampleBufferData: AVCaptureSynchronizedData, @unchecked Sendable {
    /// The frame, as the output's delegate would have had it (its pixel format, mirroring and timing).
    public let sampleBuffer: CMSampleBuffer
    /// Whether the frame was dropped: the synchronizer's delegate was still busy and the video data output discards
    /// late frames (`alwaysDiscardsLateVideoFrames`).
    public let sampleBufferWasDropped: Bool
    /// Why it was dropped (`.none` when it was not).
    public let droppedReason: AVCaptureOutput.DataDroppedReason

    init(sampleBuffer: CMSampleBuffer, timestamp: CMTime, droppedReason: AVCaptureOutput.DataDroppedReason) {
        self.sampleBuffer = sampleBuffer
        sampleBufferWasDropped = droppedReason != .none
        self.droppedReason = droppedReason
        super.init(timestamp: timestamp)
    }
}
