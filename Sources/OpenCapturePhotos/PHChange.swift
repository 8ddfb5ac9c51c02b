/// What a saved change did, as handed to change observers (Apple's `PHChange`).
public final class PHChange: Sendable {
    /// Local identifiers of the assets the change created (OpenCapture addition).
    public let insertedLocalIdentifiers: [String]
    /// Local identifiers of the assets the change edited (favourite, hidden, date, place; OpenCapture addition).
    public let changedLocalIdentifiers: [String]
    /// Local identifiers of the assets the change deleted (OpenCapture addition).
    public let removedLocalIdentifiers: [String]

    init(_ assets: PhotoStore.ChangedAssets) {
        insertedLocalIdentifiers = assets.inserted
        changedLocalIdentifiers = assets.changed
        removedLocalIdentifiers = assets.removed
    }

    /// How `fetchResult` changed: the same fetch run again, with the objects it gained, lost and whose properties
    /// changed; nil when the change did not touch it (or it was not made by a library fetch).
    public func changeDetails<T>(for fetchResult: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
        guard let after = fetchResult.refetch?() else { return nil }
        let details = PHFetchResultChangeDetails(before: fetchResult, after: after, changed: Set(changedLocalIdentifiers))
        return details.insertedObjects.isEmpty && details.removedObjects.isEmpty && details.changedObjects.isEmpty
            && details.hasIncrementalChanges ? nil : details
    }
}
