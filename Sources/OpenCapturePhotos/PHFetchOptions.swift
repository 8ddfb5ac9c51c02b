import Foundation

/// Filtering and sorting of a fetch (Apple's `PHFetchOptions`).
///
/// Differences (swift-corelibs-foundation has no key-value coding, so string keys and predicate
/// format strings do not exist on Linux): sort with key paths —
/// `NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: false)`, which compiles against
/// Apple's Photos too — instead of `NSSortDescriptor(key: "creationDate", ascending: false)`; filter
/// with `NSPredicate { asset, _ in (asset as? PHAsset)?.mediaType == .image }` or, better,
/// `fetchAssets(with: .image, options:)`, instead of `NSPredicate(format: "mediaType == %d", …)`.
/// Sorting by `creationDate` runs in the database; other key paths and predicates run on the
/// fetched assets.
public final class PHFetchOptions {
    public var sortDescriptors: [NSSortDescriptor]?
    public var predicate: NSPredicate?
    /// At most this many objects (0 = no limit).
    public var fetchLimit = 0
    /// Whether hidden assets (`isHidden`) are fetched too; by default they are left out — of every fetch, by
    /// identifiers as well.
    public var includeHiddenAssets = false

    public init() {}
}
