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

    /// Another process saves to the library (here a second `PHPhotoLibrary` on the folder: its own connection and
    /// lock, nothing shared but the files): an observer here is told, with details, within the watch interval; a
    /// change made here afterwards is told once, as its own.
    @Test func observersHearChangesSavedByAnotherProcess() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 43), options: nil)
        }
        final class Identifiers: PHPhotoLibraryChangeObserver, @unchecked Sendable {
            // `@unchecked Sendable`: `lock` guards `changes`.
            let lock = NSLock()
            var changes: [[String]] = []
            func photoLibraryDidChange(_ changeInstance: PHChange) { lock.withLock { changes.append(changeInstance.insertedLocalIdentifiers) } }
        }
        let observer = Details(library.fetchAssets()), identifiers = Identifiers()
        library.register(observer)
        library.register(identifiers)
        var elsewhere = "", here = ""
        try PHPhotoLibrary(url: library.url).performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 44), options: nil)
            elsewhere = request.placeholderForCreatedAsset?.localIdentifier ?? ""
        }
        let first = observer.waitFor(1, seconds: 10 * PHPhotoLibrary.watchInterval)
        #expect(first.count == 1 && first.first?.before == 1 && first.first?.after == 2 && first.first?.inserted == [1])
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 45), options: nil)
            here = request.placeholderForCreatedAsset?.localIdentifier ?? ""
        }
        usleep(useconds_t(3 * PHPhotoLibrary.watchInterval * 1_000_000))
        #expect(identifiers.lock.withLock { identifiers.changes } == [[elsewhere], [here]])
        #expect(observer.waitFor(2).map(\.inserted) == [[1], [2]])
        library.unregisterChangeObserver(observer)
        library.unregisterChangeObserver(identifiers)
    }
}
