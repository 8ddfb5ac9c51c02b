import Foundation

/// Feeds a capture device into a session (Apple's `AVCaptureDeviceInput`).
///
/// `@unchecked Sendable`: its only stored property is the immutable `device`.
public final class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    public let device: AVCaptureDevice

    /// Wraps a device. Apple throws when the device cannot be opened; simulated devices always open.
    public init(device: AVCaptureDevice) throws {
        self.device = device
        super.init()
    }
}
