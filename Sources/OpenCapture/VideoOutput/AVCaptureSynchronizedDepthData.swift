import Foundation

/// A depth data output's map in a synchronized collection (Apple's `AVCaptureSynchronizedDepthData`).
public final class AVCaptureSynchronizedDepthData: AVCaptureSynchronizedData, @unchecked Sendable {
    /// The map measured with the video frame of the same timestamp; for a dropped map, one of NaN (nothing measured)
    /// of the delivered size and type, as `AVCaptureDepthDataOutputDelegate`'s `didDrop` gets.
    public let depthData: AVDepthData
    /// Whether the map was dropped (still measuring the previous one, or measuring failed).
    public let depthDataWasDropped: Bool
    /// Why it was dropped (`.none` when it was not).
    public let droppedReason: AVCaptureOutput.DataDroppedReason

    init(depthData: AVDepthData, timestamp: CMTime, droppedReason: AVCaptureOutput.DataDroppedReason) {
        self.depthData = depthData
        depthDataWasDropped = droppedReason != .none
        self.droppedReason = droppedReason
        super.init(timestamp: timestamp)
    }
}
