import Foundation

/// The ordered result of a fetch (Apple's `PHFetchResult`). Unlike Apple's, it holds its objects
/// (it does not page them in lazily).
public final class PHFetchResult<ObjectType: AnyObject> {
    private let objects: [ObjectType]
    /// Runs the same fetch again (for `PHChange.changeDetails(for:)`).
    let refetch: (() -> PHFetchResult<ObjectType>)?

    init(_ objects: [ObjectType], refetch: (() -> PHFetchResult<ObjectType>)? = nil) {
        self.objects = objects
        self.refetch = refetch
    }

    /// The objects, in order (for change details).
    var all: [ObjectType] { objects }

    public var count: Int { objects.count }
    public var firstObject: ObjectType? { objects.first }
    public var lastObject: ObjectType? { objects.last }

    /// The object at `index` (Apple raises an exception out of range; this traps, as an array does).
    public func object(at index: Int) -> ObjectType { objects[index] }
    public subscript(index: Int) -> ObjectType { objects[index] }

    public func contains(_ object: ObjectType) -> Bool { objects.contains { $0 === object } || index(of: object) != NSNotFound }

    /// Position of `object` (by identity, or by local identifier for assets), or `NSNotFound`.
    public func index(of object: ObjectType) -> Int {
        if let i = objects.firstIndex(where: { $0 === object }) { return i }
        if let asset = object as? PHAsset,
           let i = objects.firstIndex(where: { ($0 as? PHAsset)?.localIdentifier == asset.localIdentifier }) { return i }
        return NSNotFound
    }

    public func objects(at indexes: IndexSet) -> [ObjectType] { indexes.map { objects[$0] } }

    /// Calls `block` with each object and its index until it sets the stop flag.
    public func enumerateObjects(_ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop = ObjCBool(false)
        for (i, object) in objects.enumerated() {
            block(object, i, &stop)
            if stop.boolValue { return }
        }
    }
}
