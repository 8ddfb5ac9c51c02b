import Foundation

extension AVCapturePhotoOutput {
    /// Apple's `async` form of `setPreparedPhotoSettingsArray(_:completionHandler:)` (iOS 15;
    /// `NS_SWIFT_ASYNC_THROWS_ON_FALSE`, so the handler's `prepared` flag becomes the throw and nothing is returned):
    /// returns once the output is prepared (after `startRunning()` if the session is stopped) and throws what the
    /// handler would get — a `PhotoSettingsError` for settings the output refuses. Superseded by a later call before it
    /// finished (Apple's handler then gets `false` with no error, which Apple's async form throws as a placeholder
    /// error), it throws `AVError(.operationInterrupted)`. Runs in its caller's isolation (`nonisolated(nonsending)`),
    /// so main-actor code can pass its settings.
    nonisolated(nonsending)
    public func setPreparedPhotoSettingsArray(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            setPreparedPhotoSettingsArray(preparedPhotoSettingsArray) { prepared, error in
                if prepared { return continuation.resume() }
                continuation.resume(throwing: error ?? AVError(.operationInterrupted, userInfo: [
                    NSLocalizedDescriptionKey: "preparation superseded by a later setPreparedPhotoSettingsArray call"]))
            }
        }
    }

    /// OpenCapture addition: captures with `settings` and returns every photo and the event
    /// timeline once `didFinishCaptureFor` arrives. Throws the request's error (a
    /// `PhotoSettingsError` for refused settings, or a processing error).
    public func capturePhotos(with settings: AVCapturePhotoSettings) async throws -> PhotoCaptureResult {
        try await withCheckedThrowingContinuation { continuation in
            let collector = CollectingPhotoDelegate(continuation: continuation)
            capturePhoto(with: settings, delegate: collector)
        }
    }
}

/// Records callbacks and resumes the caller at the end; keeps itself alive until then,
/// because the output holds delegates weakly.
///
/// `@unchecked Sendable`: `lock` guards the events, photos, first error and the self-reference.
final class CollectingPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let continuation: CheckedContinuation<PhotoCaptureResult, Error>
    private let start = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var events: [PhotoCaptureEvent] = []
    private var photos: [AVCapturePhoto] = []
    private var firstError: Error?
    private var keepAlive: CollectingPhotoDelegate?

    init(continuation: CheckedContinuation<PhotoCaptureResult, Error>) {
        self.continuation = continuation
        super.init()
        keepAlive = self
    }

    private func record(_ kind: PhotoCaptureEvent.Kind) {
        let event = PhotoCaptureEvent(kind: kind, time: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        lock.withLock { events.append(event) }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.willBeginCapture)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.willCapturePhoto)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.didCapturePhoto)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        record(.didFinishProcessingPhoto(photoCount: photo.photoCount))
        lock.withLock {
            photos.append(photo)
            if firstError == nil { firstError = error }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        record(.didFinishCapture)
        let (photos, events, firstError) = lock.withLock { (self.photos, self.events, self.firstError) }
        if let error = error ?? firstError {
            continuation.resume(throwing: error)
        } else {
            continuation.resume(returning: PhotoCaptureResult(resolvedSettings: resolvedSettings, photos: photos, events: events))
        }
        lock.withLock { keepAlive = nil }
    }
}
