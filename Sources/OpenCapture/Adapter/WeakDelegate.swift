import CaptureCore

/// Holds a photo delegate weakly, as Apple's output does.
final class WeakDelegate: Sendable {
    private let reference: Locked<WeakReference>

    init(_ value: AVCapturePhotoCaptureDelegate) { reference = Locked(WeakReference(value: value)) }

    /// The delegate, or nil once the app released it.
    var value: AVCapturePhotoCaptureDelegate? { reference.withLock { $0.value } }

    private struct WeakReference {
        weak var value: AVCapturePhotoCaptureDelegate?
    }
}
