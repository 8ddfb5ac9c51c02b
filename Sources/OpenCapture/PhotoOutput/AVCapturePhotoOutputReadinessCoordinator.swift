import Foundation

/// Tracks a photo output's readiness, counting requests an app is about to make, and tells its delegate on the main
/// queue when it changes (Apple's `AVCapturePhotoOutputReadinessCoordinator`, iOS 17), so a shutter button can be
/// enabled only while a photo can be taken.
///
/// A tracked request makes it `.notReadyMomentarily` from `startTrackingCaptureRequest(using:)` until the output has
/// it (`stopTrackingCaptureRequest(using:)` after `capturePhoto`), so a second tap cannot slip in; from then on the
/// output's own `captureReadiness` counts it until the sensor has captured it. The delegate hears of every change:
/// tracking, the output's requests moving on, the session starting and stopping.
///
/// `@unchecked Sendable`: `lock` guards the tracked requests, the last readiness told and the delegate.
public final class AVCapturePhotoOutputReadinessCoordinator: NSObject, @unchecked Sendable {
    private let photoOutput: AVCapturePhotoOutput
    private let lock = NSLock()
    private weak var _delegate: (any AVCapturePhotoOutputReadinessCoordinatorDelegate)?
    private var tracked: Set<Int64> = []
    private var reported: AVCapturePhotoOutput.CaptureReadiness
    private var observers: [NSObjectProtocol] = []

    /// A coordinator for `photoOutput`.
    public init(photoOutput: AVCapturePhotoOutput) {
        self.photoOutput = photoOutput
        reported = photoOutput.captureReadiness
        super.init()
        let names: [Notification.Name] = [.AVCaptureSessionDidStartRunning, .AVCaptureSessionDidStopRunning]
        observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                self?.update()
            }
        }
        let key = ObjectIdentifier(self)
        photoOutput.withOutputLock { photoOutput.readinessListeners[key] = { [weak self] in self?.update() } }
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        let key = ObjectIdentifier(self), output = photoOutput
        output.withOutputLock { _ = output.readinessListeners.removeValue(forKey: key) }
    }

    /// Told on the main queue when `captureReadiness` changes (held weakly, as Apple's).
    public weak var delegate: (any AVCapturePhotoOutputReadinessCoordinatorDelegate)? {
        get { lock.withLock { _delegate } }
        set { lock.withLock { _delegate = newValue } }
    }

    /// The output's readiness with the tracked requests counted: `.notReadyMomentarily` where the output would say
    /// `.ready` while a request is tracked, else the output's.
    public var captureReadiness: AVCapturePhotoOutput.CaptureReadiness {
        lock.withLock { readinessLocked() }
    }

    private func readinessLocked() -> AVCapturePhotoOutput.CaptureReadiness {
        let output = photoOutput.captureReadiness
        return output == .ready && !tracked.isEmpty ? .notReadyMomentarily : output
    }

    /// Counts a request from the moment the app decides to make it (a tap on the shutter) until
    /// `stopTrackingCaptureRequest(using:)` with its `uniqueID`, after `capturePhoto(with:delegate:)`.
    public func startTrackingCaptureRequest(using settings: AVCapturePhotoSettings) {
        lock.withLock { _ = tracked.insert(settings.uniqueID) }
        update()
    }

    /// Stops counting the request with `settingsUniqueID`.
    public func stopTrackingCaptureRequest(using settingsUniqueID: Int64) {
        lock.withLock { _ = tracked.remove(settingsUniqueID) }
        update()
    }

    /// Tells the delegate, on the main queue, when the readiness differs from what it was last told.
    private func update() {
        // Read and compared under the lock, so concurrent updates tell the delegate the states in the order they were.
        let (now, changed) = lock.withLock { () -> (AVCapturePhotoOutput.CaptureReadiness, Bool) in
            let now = readinessLocked()
            defer { reported = now }
            return (now, reported != now)
        }
        guard changed else { return }
        DispatchQueue.main.async { [weak self] in
            guard let self, let delegate = self.delegate else { return }
            delegate.readinessCoordinator(self, captureReadinessDidChange: now)
        }
    }
}
