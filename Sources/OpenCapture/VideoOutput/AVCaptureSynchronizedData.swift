import Foundation

/// One output's data in a synchronized collection (Apple's `AVCaptureSynchronizedData`, the abstract base of
/// `AVCaptureSynchronizedSampleBufferData` and `AVCaptureSynchronizedDepthData`).
public class AVCaptureSynchronizedData: NSObject, @unchecked Sendable {
    /// The data's presentation time on the session clock: the exposure start of the video frame it belongs to.
    public let timestamp: CMTime

    init(timestamp: CMTime) {
        self.timestamp = timestamp
        super.init()
    }
}
