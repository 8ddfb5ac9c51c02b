import Foundation

/// How a fetch result differs after a change (Apple's `PHFetchResultChangeDetails`): the result
/// before and after, and the positions of what was inserted and removed. Objects are matched by
/// identity or, for assets, by local identifier; assets are never edited here, so nothing is
/// "changed" and nothing moves.
public final class PHFetchResultChangeDetails<ObjectType: AnyObject> {
    public let fetchResultBeforeChanges: PHFetchResult<ObjectType>
    public let fetchResultAfterChanges: PHFetchResult<ObjectType>
    /// Positions in `fetchResultAfterChanges` of the objects the change added.
    public let insertedIndexes: IndexSet?
    public let insertedObjects: [ObjectType]
    /// Positions in `fetchResultBeforeChanges` of the objects the change removed.
    public let removedIndexes: IndexSet?
    public let removedObjects: [ObjectType]
    public let changedIndexes: IndexSet? = IndexSet()
    public let changedObjects: [ObjectType] = []
    public var hasIncrementalChanges: Bool { true }
    public var hasMoves: Bool { false }

    init(before: PHFetchResult<ObjectType>, after: PHFetchResult<ObjectType>) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        func key(_ object: ObjectType) -> String {
            (object as? PHAsset)?.localIdentifier ?? "\(ObjectIdentifier(object))"
        }
        let beforeKeys = Set(before.all.map(key)), afterKeys = Set(after.all.map(key))
        let inserted = after.all.indices.filter { !beforeKeys.contains(key(after.all[$0])) }
        let removed = before.all.indices.filter { !afterKeys.contains(key(before.all[$0])) }
        insertedIndexes = IndexSet(inserted)
        insertedObjects = inserted.map { after.all[$0] }
        removedIndexes = IndexSet(removed)
        removedObjects = removed.map { before.all[$0] }
    }

    /// Calls `handler` for each move (there are none: assets keep their order).
    public func enumerateMoves(_ handler: (Int, Int) -> Void) {}
}
