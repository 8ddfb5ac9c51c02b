import Foundation

/// Collects the requests made inside one change block. It lives in the running thread's
/// dictionary while the block runs, so `PHAssetCreationRequest.forAsset()` finds the change it
/// belongs to and requests made on other threads belong to none.
final class ChangeRecorder {
    private(set) var creations: [PHAssetCreationRequest] = []
    private(set) var edits: [PHAssetChangeRequest] = []
    /// The assets `deleteAssets` was given, in order (each once).
    private(set) var deletions: [String] = []
    /// What was wrong with a `deleteAssets` call (it fails the change).
    private(set) var problems: [String] = []
    private static let key = "OpenCapturePhotos.ChangeRecorder"

    func add(_ request: PHAssetCreationRequest) { creations.append(request) }
    func edit(_ request: PHAssetChangeRequest) { edits.append(request) }

    func delete(_ collection: any NSFastEnumeration) {
        guard let objects = fastEnumerationObjects(collection) else {
            problems.append("deleteAssets was given a \(type(of: collection)), not an NSArray, NSSet, NSOrderedSet or PHFetchResult of assets")
            return
        }
        for object in objects {
            guard let asset = object as? PHAsset else {
                problems.append("deleteAssets was given a \(type(of: object)) among its assets")
                continue
            }
            if !deletions.contains(asset.localIdentifier) { deletions.append(asset.localIdentifier) }
        }
    }

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
