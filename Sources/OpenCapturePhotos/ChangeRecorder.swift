import Foundation

/// Collects the requests made inside one change block. It lives in the running thread's
/// dictionary while the block runs, so `PHAssetCreationRequest.forAsset()` finds the change it
/// belongs to and requests made on other threads belong to none.
final class ChangeRecorder {
    private(set) var creations: [PHAssetCreationRequest] = []
    private static let key = "OpenCapturePhotos.ChangeRecorder"

    func add(_ request: PHAssetCreationRequest) { creations.append(request) }

    /// The recorder of the change block running on this thread, if any.
    static var current: ChangeRecorder? { Thread.current.threadDictionary[key] as? ChangeRecorder }

    /// Runs `block` with a fresh recorder as this thread's current one and returns it.
    static func record(_ block: () -> Void) -> ChangeRecorder {
        let recorder = ChangeRecorder()
        let previous = Thread.current.threadDictionary[key]
        Thread.current.threadDictionary[key] = recorder
        defer { Thread.current.threadDictionary[key] = previous }
        block()
        return recorder
    }
}
