/// Holds a photo delegate weakly, as Apple's output does.
final class WeakDelegate: @unchecked Sendable {
    weak var value: AVCapturePhotoCaptureDelegate?
    init(_ value: AVCapturePhotoCaptureDelegate) { self.value = value }
}
