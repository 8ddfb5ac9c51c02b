import Foundation

/// Receives a synchronizer's collections (Apple's `AVCaptureDataOutputSynchronizerDelegate`), on the queue given to
/// `setDelegate(_:queue:)`, one at a time, in time order.
public protocol AVCaptureDataOutputSynchronizerDelegate: AnyObject {
    /// The data of one moment: for each output that had data at the primary output's timestamp.
    func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer,
                                didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection)
}
