import Foundation

/// Orientation of captured video and photos (Apple's `AVCaptureVideoOrientation`, deprecated in iOS 17
/// in favour of `AVCaptureConnection.videoRotationAngle`).
public enum AVCaptureVideoOrientation: Int, Sendable {
    case portrait = 1, portraitUpsideDown = 2, landscapeRight = 3, landscapeLeft = 4

    /// The clockwise rotation, in degrees, that displays the sensor image upright.
    var rotationAngle: CGFloat {
        switch self {
        case .landscapeRight: return 0
        case .portrait: return 90
        case .landscapeLeft: return 180
        case .portraitUpsideDown: return 270
        }
    }
}
