import Foundation

/// A collection `PHAssetChangeRequest.deleteAssets(_:)` accepts, as Foundation's `NSFastEnumeration` on Apple's
/// platforms (swift-corelibs-foundation does not declare it): `NSArray` (`[asset] as NSArray`), `NSSet`,
/// `NSOrderedSet` and `PHFetchResult`. It has no requirements here; the library reads the collection's objects.
public protocol NSFastEnumeration {}

extension NSArray: NSFastEnumeration {}
extension NSSet: NSFastEnumeration {}
extension NSOrderedSet: NSFastEnumeration {}
extension PHFetchResult: NSFastEnumeration {}

/// The objects of a collection given as `NSFastEnumeration`, or nil for a collection the library cannot read.
func fastEnumerationObjects(_ collection: any NSFastEnumeration) -> [Any]? {
    switch collection {
    case let array as NSArray: return array.map { $0 }
    case let set as NSSet: return set.map { $0 }
    case let ordered as NSOrderedSet: return ordered.map { $0 }
    case let result as PHFetchResult<PHAsset>: return result.all
    default: return nil
    }
}
