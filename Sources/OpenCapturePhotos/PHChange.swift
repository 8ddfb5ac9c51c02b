/// What a saved change did, as handed to change observers (Apple's `PHChange`).
public final class PHChange: Sendable {
    /// Local identifiers of the assets the change created (OpenCapture addition).
    public let insertedLocalIdentifiers: [String]
    init(inserted: [String]) { insertedLocalIdentifiers = inserted }

    /// How `fetchResult` changed: the same fetch run again, with the objects it gained and lost;
    /// nil when the change did not touch it (or it was not made by a library fetch).
    public func changeDetails<T>(for fetchResult: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
        guard let after = fetchResult.refetch?() else { return nil }
        let details = PHFetchResultChangeDetails(before: fetchResult, after: after)
        return details.insertedObjects.isEmpty && details.removedObjects.isEmpty ? nil : details
    }
}
