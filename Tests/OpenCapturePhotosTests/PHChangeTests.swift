import Foundation
import Testing
@testable import OpenCapturePhotos

/// Change details for fetch results an observer holds.
@Suite struct PHChangeTests {
    /// Records the details of each change for one fetch result.
    final class Details: PHPhotoLibraryChangeObserver, @unchecked Sendable {
        // `@unchecked Sendable`: `lock` guards `fetch` and `seen`.
        let lock = NSLock()
        var fetch: PHFetchResult<PHAsset>
        var seen: [(before: Int, after: Int, inserted: [Int])] = []
        init(_ fetch: PHFetchResult<PHAsset>) { self.fetch = fetch }
        func photoLibraryDidChange(_ changeInstance: PHChange) {
            lock.withLock {
                guard let details = changeInstance.changeDetails(for: fetch) else { return }
                seen.append((details.fetchResultBeforeChanges.count, details.fetchResultAfterChanges.count, Array(details.insertedIndexes ?? [])))
                fetch = details.fetchResultAfterChanges
            }
        }
        /// What was seen, once `count` changes were (waiting up to `seconds`).
        func waitFor(_ count: Int, seconds: Double = 5) -> [(before: Int, after: Int, inserted: [Int])] {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, lock.withLock({ seen.count }) < count { usleep(20_000) }
            return lock.withLock { seen }
        }
    }

    /// An app's first launch: its fetch runs before there is a library; the first save makes one and the observer
    /// gets the details of that fetch (and of the next).
    @Test func aFetchMadeBeforeTheLibraryExistedGetsDetails() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetch = library.fetchAssets()
        #expect(fetch.count == 0)
        let observer = Details(fetch)
        library.register(observer)
        for seed in [41, 42] {
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: seed), options: nil)
            }
        }
        let seen = observer.waitFor(2)
        #expect(seen.map(\.before) == [0, 1] && seen.map(\.after) == [1, 2] && seen.map(\.inserted) == [[0], [1]])
    }
}
