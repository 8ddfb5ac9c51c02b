import Foundation
import GRDB
import Testing
@testable import OpenCapturePhotos

/// Editing and deleting assets, and the change request's two creation shortcuts.
@Suite struct PHAssetChangeRequestTests {
    /// Saves one JPEG per seed as its own asset; returns their identifiers in order.
    private func add(_ seeds: [Int], to library: PHPhotoLibrary) throws -> [String] {
        var ids: [String] = []
        for seed in seeds {
            var placeholder: PHObjectPlaceholder?
            try library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: seed), options: nil)
                placeholder = request.placeholderForCreatedAsset
            }
            ids.append(placeholder!.localIdentifier)
        }
        return ids
    }

    /// The files under `originals/` (staging included), by name.
    private func storedFiles(_ library: PHPhotoLibrary) -> [String] {
        let root = library.url.appendingPathComponent("originals")
        let names = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return names.filter { !$0.hasSuffix("/") && !(["", ".staging"].contains($0)) && $0.count > 3 }.sorted()
    }

    @Test func editsSetOnlyWhatTheyChange() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = try add([1], to: library)[0]
        let before = library.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject!
        #expect(!before.isFavorite)
        let date = Date(timeIntervalSince1970: 1_500_000_000)
        try library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: before)
            request.isFavorite = true
            request.creationDate = date
        }
        let after = library.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject!
        #expect(after.isFavorite && after.creationDate == date)
        #expect(after.isHidden == false && after.location == nil && after.pixelWidth == 64)
        #expect(after.modificationDate! >= before.modificationDate!)
        // A place set with Apple's full CLLocation initialiser: coordinate and altitude kept.
        let place = CLLocation(coordinate: CLLocationCoordinate2D(latitude: 46.2, longitude: 6.15), altitude: 375,
                               horizontalAccuracy: 5, verticalAccuracy: 3, timestamp: date)
        try library.performChangesAndWait { PHAssetChangeRequest(for: after).location = place }
        let placed = library.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject!
        #expect(placed.location?.coordinate.latitude == 46.2 && placed.location?.altitude == 375 && placed.isFavorite)
        // Hiding leaves the asset out of fetches and keeps what earlier edits set.
        try library.performChangesAndWait { PHAssetChangeRequest(for: after).isHidden = true }
        #expect(library.fetchAssets().count == 0)
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        let hidden = library.fetchAssets(with: options)
        #expect(hidden.count == 1 && hidden[0].isHidden && hidden[0].isFavorite)
    }

    @Test func deletingRemovesTheAssetAndItsFilesButNotSharedBytes() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = try add([1, 2, 1], to: library)   // the third holds the first's bytes (stored once)
        #expect(storedFiles(library).count == 2)
        let fetched = library.fetchAssets(withLocalIdentifiers: [ids[0], ids[1]], options: nil)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([fetched[0], fetched[1]] as NSArray) }
        #expect(library.fetchAssets().all.map(\.localIdentifier) == [ids[2]])
        // Asset 2's file is gone; asset 1's bytes stay for asset 3.
        #expect(storedFiles(library).count == 1)
        let remaining = library.fetchAssets()[0]
        let resource = PHAssetResource.assetResources(for: remaining)[0]
        #expect(try PHAssetResourceManager.default().data(for: resource) == PhotoFixtures.jpeg(seed: 1))
        // A fetch result is a collection deleteAssets takes too.
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(library.fetchAssets()) }
        #expect(library.fetchAssets().count == 0 && storedFiles(library).isEmpty)
    }

    @Test func aFailedChangeDeletesNothing() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = try add([1, 2], to: library)
        let assets = library.fetchAssets()
        // The second deletion names an asset already gone: the whole change fails and the first is kept, file and all.
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([assets[1]] as NSArray) }
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(assets) }
        }
        #expect(library.fetchAssets().all.map(\.localIdentifier) == [ids[0]])
        #expect(storedFiles(library).count == 1)
        // Not assets: refused, nothing deleted.
        do {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(["IMG_1.JPG"] as NSArray) }
            Issue.record("a string among the assets was accepted")
        } catch let error as PHPhotosError {
            #expect(error.code == .invalidResource && error.reason.contains("String"))
        }
        // Editing a deleted asset: identifierNotFound, and the change's creation is not saved either.
        do {
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 3), options: nil)
                PHAssetChangeRequest(for: assets[1]).isFavorite = true
            }
            Issue.record("editing a deleted asset was accepted")
        } catch let error as PHPhotosError {
            #expect(error.code == .identifierNotFound && error.reason.contains(ids[1]))
        }
        #expect(library.fetchAssets().count == 1 && storedFiles(library).count == 1)
    }

    /// A deletion cut off between its files moving aside and its transaction committing: the next open puts the files
    /// back, as the rows still reference them. (A committed deletion's files are staged files no row references, which
    /// the store's recovery tests show go.)
    @Test func recoveryFinishesOrUndoesAnInterruptedDeletion() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = try add([1], to: library)[0]
        let stored = storedFiles(library)[0]
        let originals = library.url.appendingPathComponent("originals")
        let staging = originals.appendingPathComponent(".staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        // Not committed: the file set aside is put back at the next open.
        try FileManager.default.moveItem(at: originals.appendingPathComponent(stored),
                                        to: staging.appendingPathComponent((stored as NSString).lastPathComponent))
        let reopened = PHPhotoLibrary(url: library.url)
        let asset = reopened.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject!
        #expect(storedFiles(reopened) == [stored])
        #expect(try PHAssetResourceManager.default().data(for: PHAssetResource.assetResources(for: asset)[0]) == PhotoFixtures.jpeg(seed: 1))
    }

    @Test func observersAreToldOfEditsAndDeletions() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try add([1, 2, 3], to: library)
        final class Seen: PHPhotoLibraryChangeObserver, @unchecked Sendable {
            // `@unchecked Sendable`: `lock` guards `fetch` and `details`.
            let lock = NSLock()
            var fetch: PHFetchResult<PHAsset>
            var details: [PHFetchResultChangeDetails<PHAsset>] = []
            init(_ fetch: PHFetchResult<PHAsset>) { self.fetch = fetch }
            func photoLibraryDidChange(_ change: PHChange) {
                lock.withLock {
                    guard let d = change.changeDetails(for: fetch) else { return }
                    details.append(d)
                    fetch = d.fetchResultAfterChanges
                }
            }
        }
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: true)]
        let fetch = library.fetchAssets(with: options)
        let observer = Seen(fetch)
        library.register(observer)
        try library.performChangesAndWait { PHAssetChangeRequest(for: fetch[1]).isFavorite = true }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([fetch[0]] as NSArray) }
        // Moving the (now) last asset first by date: not incremental.
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: fetch[2]).creationDate = Date(timeIntervalSince1970: 0)
        }
        let details = observer.lock.withLock { observer.details }
        try #require(details.count == 3)
        #expect(details[0].changedIndexes == IndexSet([1]) && details[0].changedObjects[0].isFavorite)
        #expect(details[0].insertedObjects.isEmpty && details[0].removedObjects.isEmpty && details[0].hasIncrementalChanges)
        #expect(details[1].removedIndexes == IndexSet([0]) && details[1].fetchResultAfterChanges.count == 2)
        #expect(!details[2].hasIncrementalChanges && details[2].fetchResultAfterChanges[0].localIdentifier == fetch[2].localIdentifier)
        library.unregisterChangeObserver(observer)
    }

    @Test func creationShortcutsReadFiles() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("IMG_0001.JPG"), movie = folder.appendingPathComponent("clip.mov")
        try PhotoFixtures.jpeg(seed: 4).write(to: photo)
        try PhotoFixtures.unpairedMovie().write(to: movie)
        var ids: [String?] = []
        try library.performChangesAndWait {
            ids.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)?.placeholderForCreatedAsset?.localIdentifier)
            let video = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: movie)
            video?.isFavorite = true
            ids.append(video?.placeholderForCreatedAsset?.localIdentifier)
        }
        let assets = library.fetchAssets(withLocalIdentifiers: ids.compactMap { $0 }, options: nil)
        #expect(assets.count == 2)
        let image = assets.all.first { $0.mediaType == .image }, video = assets.all.first { $0.mediaType == .video }
        #expect(image?.pixelWidth == 64 && image?.duration == 0)
        // A video's size and length come from its movie header.
        #expect(video?.pixelWidth == 64 && video?.pixelHeight == 48 && video?.isFavorite == true)
        #expect(abs((video?.duration ?? 0) - 5.0 / 15) < 0.01)
        #expect(PHAssetResource.assetResources(for: image!)[0].originalFilename == "IMG_0001.JPG")
    }
}

/// A library saved before videos' sizes and lengths were read (schema before v4): opening it reads them once.
@Suite struct PhotoStoreVideoMigrationTests {
    @Test func earlierVideosGetTheirSizeAndLength() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .video, data: try! PhotoFixtures.unpairedMovie(), options: nil)
        }
        // As an earlier release left it: 0×0, 0 s, and the v4 migration not yet applied.
        let database = try DatabaseQueue(path: library.url.appendingPathComponent("Photos.sqlite").path)
        try database.write { db in
            try db.execute(sql: "UPDATE asset SET pixelWidth = 0, pixelHeight = 0, duration = 0")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v4:%'")
        }
        try database.close()
        let video = try #require(PHPhotoLibrary(url: library.url).fetchAssets().firstObject)
        #expect(video.mediaType == .video && video.pixelWidth == 64 && video.pixelHeight == 48)
        #expect(abs(video.duration - 5.0 / 15) < 0.01)
    }
}
