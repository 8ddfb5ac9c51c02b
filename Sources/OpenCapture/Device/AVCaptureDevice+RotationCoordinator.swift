import Foundation

extension AVCaptureDevice {
    /// Tells the angles by which to rotate a camera's preview and captures so they stay level with the horizon
    /// (Apple's `AVCaptureDevice.RotationCoordinator`, iOS 17).
    ///
    /// The simulated phone is held in landscape with its room upright in the sensor's frame, so both angles are 0°
    /// for every camera (a photo taken at that angle displays upright, EXIF orientation 1); the simulated swings only
    /// pitch and yaw, which leave the horizon's angle alone, so the angles never change.
    /// Differences: `previewLayer` is `AnyObject?` (Apple: `CALayer?`; Linux has no Core Animation), and the angles
    /// cannot be observed with key-value observing (swift-corelibs-foundation has none): read them when capturing.
    ///
    /// `@unchecked Sendable`: the device and layer references are immutable weak references.
    public final class RotationCoordinator: NSObject, @unchecked Sendable {
        /// The device whose angles are given (weak, as Apple's).
        public private(set) weak var device: AVCaptureDevice?
        /// The layer showing the device's preview, if any (weak, as Apple's).
        public private(set) weak var previewLayer: AnyObject?

        public init(device: AVCaptureDevice, previewLayer: AnyObject?) {
            self.device = device
            self.previewLayer = previewLayer
            super.init()
        }

        /// The angle, in degrees, to rotate the preview by (`AVCaptureConnection.videoRotationAngle` of the preview
        /// layer's connection) to show it level: 0.
        public var videoRotationAngleForHorizonLevelPreview: CGFloat { 0 }

        /// The angle, in degrees, to set on an output's connection (`videoRotationAngle`) so captures are level: 0.
        public var videoRotationAngleForHorizonLevelCapture: CGFloat { 0 }
    }
}
