import Foundation
import OpenCapture

/// A photo-capture delegate that records every callback of the requests it serves, in arrival order,
/// and signals when a request's `didFinishCapture` arrives.
///
/// `@unchecked Sendable`: `lock` guards `events`, `photoBytes` and `errors`; `finished` is a semaphore.
final class CallbackRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    /// The five callbacks of a one-photo request, in the order Apple documents them.
    enum Kind: Int, CaseIterable, CustomStringConvertible {
        case willBegin, willCapture, didCapture, didFinishProcessing, didFinishCapture
        var description: String {
            ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"][rawValue]
        }
    }

    private let lock = NSLock()
    private var events: [(id: Int64, kind: Kind)] = []
    private var photoBytes = 0
    private var errors: [String] = []
    /// Signalled once per `didFinishCapture`.
    let finished = DispatchSemaphore(value: 0)

    /// The callbacks so far, in arrival order.
    var log: [(id: Int64, kind: Kind)] { lock.withLock { events } }
    /// Bytes of every delivered photo's file data.
    var deliveredBytes: Int { lock.withLock { photoBytes } }
    /// Errors any callback carried.
    var reportedErrors: [String] { lock.withLock { errors } }

    private func record(_ id: Int64, _ kind: Kind, error: Error? = nil, bytes: Int = 0) {
        lock.withLock {
            events.append((id, kind))
            photoBytes += bytes
            if let error { errors.append("\(id) \(kind): \(error)") }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(resolvedSettings.uniqueID, .willBegin)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(resolvedSettings.uniqueID, .willCapture)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(resolvedSettings.uniqueID, .didCapture)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        record(photo.resolvedSettings.uniqueID, .didFinishProcessing, error: error,
               bytes: photo.fileDataRepresentation()?.count ?? 0)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: Error?) {
        record(resolvedSettings.uniqueID, .didFinishCapture, error: error)
        finished.signal()
    }
}
