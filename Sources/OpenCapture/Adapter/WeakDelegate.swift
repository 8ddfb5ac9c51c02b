import Synchronization

/// Holds a photo delegate weakly, as Apple's output does.
final class WeakDelegate: Sendable {
    private let reference: Mutex<WeakReference>

    init(_ value: AVCapturePhotoCaptureDelegate) { reference = Mutex(WeakReference(value: value)) }

    /// The delegate, or nil once the app released it.
    var value: AVCapturePhotoCaptureDelegate? { reference.withLock { $0.value } }

    private struct WeakReference: @unchecked Sendable {
        // Only read and written inside `reference`'s lock.
        weak var value: AVCapturePhotoCaptureDelegate?
    }
}
