import Foundation

/// How a fetch result differs after a change (Apple's `PHFetchResultChangeDetails`): the result before and after,
/// and the positions of what was removed, inserted and changed. Objects are matched by identity or, for assets, by
/// local identifier.
///
/// Difference: moves are not described. When an edit reorders the objects both results hold (a new creation date
/// under a date sort), `hasIncrementalChanges` is false and a collection view reloads from
/// `fetchResultAfterChanges`, which Apple's contract allows.
public final class PHFetchResultChangeDetails<ObjectType: AnyObject> {
    public let fetchResultBeforeChanges: PHFetchResult<ObjectType>
    public let fetchResultAfterChanges: PHFetchResult<ObjectType>
    /// Positions in `fetchResultBeforeChanges` of the objects the change removed; nil (and the objects empty, as
    /// every index set and object list here) when `hasIncrementalChanges` is false.
    public let removedIndexes: IndexSet?
    public let removedObjects: [ObjectType]
    /// Positions in `fetchResultAfterChanges` of the objects the change added.
    public let insertedIndexes: IndexSet?
    public let insertedObjects: [ObjectType]
    /// Positions in `fetchResultAfterChanges` of the objects the change edited (their new state).
    public let changedIndexes: IndexSet?
    public let changedObjects: [ObjectType]
    /// False when the objects both results hold are in another order: reload from `fetchResultAfterChanges` (the
    /// index sets are then nil, as Apple's, so code that reads them without checking this applies nothing stale).
    public let hasIncrementalChanges: Bool
    public var hasMoves: Bool { false }

    init(before: PHFetchResult<ObjectType>, after: PHFetchResult<ObjectType>, changed: Set<String> = []) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        func key(_ object: ObjectType) -> String {
            (object as? PHAsset)?.localIdentifier ?? "\(ObjectIdentifier(object))"
        }
        let beforeKeys = before.all.map(key), afterKeys = after.all.map(key)
        let beforeSet = Set(beforeKeys), afterSet = Set(afterKeys)
        // Objects both results hold in another order: no incremental description (Apple's indexes are then nil).
        hasIncrementalChanges = beforeKeys.filter(afterSet.contains) == afterKeys.filter(beforeSet.contains)
        let inserted = hasIncrementalChanges ? afterKeys.indices.filter { !beforeSet.contains(afterKeys[$0]) } : []
        let removed = hasIncrementalChanges ? beforeKeys.indices.filter { !afterSet.contains(beforeKeys[$0]) } : []
        let edited = hasIncrementalChanges
            ? afterKeys.indices.filter { beforeSet.contains(afterKeys[$0]) && changed.contains(afterKeys[$0]) } : []
        insertedIndexes = hasIncrementalChanges ? IndexSet(inserted) : nil
        insertedObjects = inserted.map { after.all[$0] }
        removedIndexes = hasIncrementalChanges ? IndexSet(removed) : nil
        removedObjects = removed.map { before.all[$0] }
        changedIndexes = hasIncrementalChanges ? IndexSet(edited) : nil
        changedObjects = edited.map { after.all[$0] }
    }

    /// Calls `handler` for each move (none are described: see `hasIncrementalChanges`).
    public func enumerateMoves(_ handler: (Int, Int) -> Void) {}
}
