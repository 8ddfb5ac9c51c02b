import Foundation
import OpenCapture

/// Receives one request's callbacks, publishes each as it happens (milliseconds since the shutter
/// press) and hands the photos over when `didFinishCaptureFor` arrives.
final class StudioPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `photos`, `events`, `finished` and `outcome`; the rest is immutable.
    struct Delivered: Sendable {
        var data: Data
        var isRaw: Bool
    }

    private let lock = NSLock()
    private var photos: [Delivered] = []
    /// The Live Photo movie, once written.
    private var movie: URL?
    private var events: [StudioCaptureEvent] = []
    private var finished: CheckedContinuation<([Delivered], [StudioCaptureEvent]), any Error>?
    /// The result when `didFinishCaptureFor` came before anyone waited.
    private var outcome: Result<([Delivered], [StudioCaptureEvent]), any Error>?
    private let captureID: String
    private let start: DispatchTime
    private let hub: StudioEventHub

    init(captureID: String, start: DispatchTime, hub: StudioEventHub) {
        self.captureID = captureID
        self.start = start
        self.hub = hub
    }

    /// Milliseconds since the shutter press.
    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6 }

    private func stage(_ name: String, detail: String? = nil) {
        let t = now()
        lock.withLock { events.append(StudioCaptureEvent(name: name, start: t, end: t, detail: detail)) }
        var event: [String: Any] = ["type": "stage", "capture": captureID, "name": name, "t": t]
        if let detail { event["detail"] = detail }
        hub.publish(event)
    }

    /// The photos and events, once `didFinishCaptureFor` has arrived.
    func wait() async throws -> ([Delivered], [StudioCaptureEvent]) {
        try await withCheckedThrowingContinuation { continuation in
            let ready = lock.withLock { () -> Result<([Delivered], [StudioCaptureEvent]), any Error>? in
                if outcome == nil { finished = continuation }
                return outcome
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        stage("willBeginCapture", detail: "\(resolvedSettings.photoDimensions.width)×\(resolvedSettings.photoDimensions.height), "
              + "\(resolvedSettings.expectedPhotoCount) photo(s)" + (resolvedSettings.isFlashEnabled ? ", flash" : ""))
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        stage("willCapturePhoto")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        stage("didCapturePhoto")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        if let data = photo.fileDataRepresentation(), error == nil {
            lock.withLock { photos.append(Delivered(data: data, isRaw: photo.isRawPhoto)) }
        }
        stage("didFinishProcessingPhoto", detail: error.map { "\($0)" } ?? "#\(photo.photoCount)" + (photo.isRawPhoto ? " RAW" : ""))
    }

    /// The Live Photo movie written for this request, if any.
    var livePhotoMovie: URL? { lock.withLock { movie } }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
                     resolvedSettings: AVCaptureResolvedPhotoSettings) {
        stage("didFinishRecordingLivePhotoMovie")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
                     photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        if error == nil { lock.withLock { movie = outputFileURL } }
        stage("didFinishProcessingLivePhotoToMovieFile",
              detail: error.map { "\($0)" } ?? String(format: "%.2f s, still at %.2f s", duration.seconds, photoDisplayTime.seconds))
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: (any Error)?) {
        stage("didFinishCapture")
        let continuation = lock.withLock { () -> CheckedContinuation<([Delivered], [StudioCaptureEvent]), any Error>? in
            let result: Result<([Delivered], [StudioCaptureEvent]), any Error> = error.map { .failure($0) } ?? .success((photos, events))
            defer { finished = nil }
            if finished == nil { outcome = result }
            return finished.map { c in c }
        }
        if let continuation {
            continuation.resume(with: error.map { .failure($0) } ?? .success(lock.withLock { (photos, events) }))
        }
    }
}
