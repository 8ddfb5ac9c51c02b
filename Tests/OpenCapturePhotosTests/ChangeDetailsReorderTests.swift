import Foundation
import Testing
@testable import OpenCapturePhotos

/// When a change reorders what a fetch result holds, `hasIncrementalChanges` is false and, as Apple documents, the
/// index sets are nil: an app that reads `changedIndexes` without checking must not reload a stale row.
@Suite struct ChangeDetailsReorderTests {
    private final class Item {}

    @Test func aReorderGivesNoIndexes() {
        let a = Item(), b = Item(), c = Item()
        let details = PHFetchResultChangeDetails(before: PHFetchResult([a, b, c]), after: PHFetchResult([c, a]),
                                                 changed: ["\(ObjectIdentifier(c))"])
        #expect(!details.hasIncrementalChanges)
        #expect(details.removedIndexes == nil && details.insertedIndexes == nil && details.changedIndexes == nil)
        #expect(details.removedObjects.isEmpty && details.insertedObjects.isEmpty && details.changedObjects.isEmpty)
        #expect(details.fetchResultAfterChanges.count == 2)
    }

    @Test func anIncrementalChangeKeepsItsIndexes() {
        let a = Item(), b = Item(), c = Item()
        let details = PHFetchResultChangeDetails(before: PHFetchResult([a, b]), after: PHFetchResult([a, c]),
                                                 changed: ["\(ObjectIdentifier(a))"])
        #expect(details.hasIncrementalChanges)
        #expect(details.removedIndexes == IndexSet([1]) && details.insertedIndexes == IndexSet([1]) && details.changedIndexes == IndexSet([0]))
    }
}
