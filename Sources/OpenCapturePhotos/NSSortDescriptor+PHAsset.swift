import Foundation

extension NSSortDescriptor {
    /// Sorts assets by an optional date (`\PHAsset.creationDate`, `\PHAsset.modificationDate`), assets
    /// without one last — the form that compiles both here and against Apple's Photos, where
    /// swift-corelibs-foundation lacks `init(key:ascending:)` (no key-value coding on Linux).
    public convenience init(keyPath: KeyPath<PHAsset, Date?>, ascending: Bool) {
        self.init(keyPath: keyPath, ascending: ascending) { a, b in
            let x = (a as? Date) ?? .distantFuture, y = (b as? Date) ?? .distantFuture
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        }
    }

    /// Sorts assets by a flag (`\PHAsset.isFavorite`, `\PHAsset.isHidden`), false before true when ascending — Apple's
    /// `NSSortDescriptor(keyPath:ascending:)` takes any key path; swift-corelibs-foundation's only `Comparable` ones.
    public convenience init(keyPath: KeyPath<PHAsset, Bool>, ascending: Bool) {
        self.init(keyPath: keyPath, ascending: ascending) { a, b in
            let x = (a as? Bool) ?? false, y = (b as? Bool) ?? false
            return x == y ? .orderedSame : (!x ? .orderedAscending : .orderedDescending)
        }
    }
}
