import Foundation

/// Tracks a photo output's readiness, counting requests an app is about to make, and tells its delegate on the main
/// queue when it changes (Apple's `AVCapturePhotoOutputReadinessCoordinator`, iOS 17), so a shutter button can be
/// enabled only while a photo can be taken.
///
/// Difference: the output queues requests instead of refusing them while the sensor is busy (its `captureReadiness`
/// is `.sessionNotRunning` or `.ready`), so tracked requests do not make it not ready either; the delegate hears of
/// the session starting and stopping (`.ready` / `.sessionNotRunning`, from the session's notifications).
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
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    /// Told on the main queue when `captureReadiness` changes (held weakly, as Apple's).
    public weak var delegate: (any AVCapturePhotoOutputReadinessCoordinatorDelegate)? {
        get { lock.withLock { _delegate } }
        set { lock.withLock { _delegate = newValue } }
    }

    /// The output's readiness with the tracked requests counted: `.sessionNotRunning` or `.ready`.
    public var captureReadiness: AVCapturePhotoOutput.CaptureReadiness { photoOutput.captureReadiness }

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
        let now = captureReadiness
        let changed = lock.withLock { () -> Bool in
            defer { reported = now }
            return reported != now
        }
        guard changed else { return }
        DispatchQueue.main.async { [weak self] in
            guard let self, let delegate = self.delegate else { return }
            delegate.readinessCoordinator(self, captureReadinessDidChange: now)
        }
    }
}
