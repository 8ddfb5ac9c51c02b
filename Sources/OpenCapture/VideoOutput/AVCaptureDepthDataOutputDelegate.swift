import Foundation

/// Receives a depth data output's depth maps (Apple's `AVCaptureDepthDataOutputDelegate`). Both methods are
/// optional. They run on the queue given to `setDelegate(_:callbackQueue:)`, one at a time, in time order.
public protocol AVCaptureDepthDataOutputDelegate: AnyObject {
    /// A new depth map, stamped with the exposure start of the video frame it was measured with.
    func depthDataOutput(_ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
                         connection: AVCaptureConnection)
    /// A depth map was dropped. Difference: nothing was measured for it, so `depthData` is a map of NaN
    /// (no measurement) of the delivered size and type.
    func depthDataOutput(_ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime,
                         connection: AVCaptureConnection, reason: AVCaptureOutput.DataDroppedReason)
}

extension AVCaptureDepthDataOutputDelegate {
    public func depthDataOutput(_ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
                                connection: AVCaptureConnection) {}
    public func depthDataOutput(_ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime,
                                connection: AVCaptureConnection, reason: AVCaptureOutput.DataDroppedReason) {}
}
