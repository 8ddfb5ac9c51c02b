import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import OpenCapturePhotos

/// What opening a library may remove: only what an interrupted change left, never an asset or a file it references.
@Suite struct PhotoStoreTests {
    /// A Live Photo whose stored movie was deleted by hand: every open keeps the asset and its photo; reading the movie
    /// says it is missing, naming it.
    @Test func aMissingOriginalLosesNothingElse() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (still, movie) = try LivePhotoPairFixture.make(in: folder)
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: still, options: nil)
            request.addResource(with: .pairedVideo, fileURL: movie, options: nil)
        }
        let stored = PhotoFixtures.storedFiles(library)
        let storedMovie = try #require(stored.first { $0.hasSuffix(".mov") })
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("originals/" + storedMovie))
        for _ in 0..<2 { #expect(PHPhotoLibrary(url: library.url).fetchAssets().count == 1) }
        #expect(PhotoFixtures.storedFiles(library) == stored.filter { $0 != storedMovie })
        let asset = try #require(PHPhotoLibrary(url: library.url).fetchAssets().firstObject)
        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(try PhotoFixtures.data(of: resources[0]) == Data(contentsOf: still))
        do {
            _ = try PhotoFixtures.data(of: resources[1])
            Issue.record("a missing file was read")
        } catch let error as PHPhotosError {
            #expect(error.code == .missingResource && error.reason.contains("IMG_0001.MOV is missing"), "\(error)")
        }
    }

    /// `originals/` moved away and back: reading meanwhile creates no folder and deletes nothing; a change meanwhile is
    /// refused rather than starting an empty store; once it is back, everything reads.
    @Test func anOriginalsFolderMovedAwayAndBackLosesNothing() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg(seed: 31)
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpeg, options: nil) }
        let originals = library.url.appendingPathComponent("originals"), away = folder.appendingPathComponent("away")
        try FileManager.default.moveItem(at: originals, to: away)
        for _ in 0..<2 { #expect(PHPhotoLibrary(url: library.url).fetchAssets().count == 1) }
        #expect(!FileManager.default.fileExists(atPath: originals.path), "reading made a folder")
        do {
            try PHPhotoLibrary(url: library.url).performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 32), options: nil)
            }
            Issue.record("a change was saved without the originals folder")
        } catch let error as PHPhotosError {
            #expect(error.code == .missingResource && error.reason.contains("originals folder"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: originals.path))
        try FileManager.default.moveItem(at: away, to: originals)
        let reopened = PHPhotoLibrary(url: library.url)
        let asset = try #require(reopened.fetchAssets().firstObject)
        #expect(reopened.fetchAssets().count == 1)
        #expect(try PhotoFixtures.data(of: try #require(PHAssetResource.assetResources(for: asset).first)) == jpeg)
    }

    /// What a change killed between its files and its transaction leaves (a temporary file, a staged file no row
    /// references) is removed on the next open; a staged file its committed change did not get to rename takes its
    /// stored name (and reads meanwhile); a file named as the store names them that nothing references (put back from
    /// a backup, say) stays.
    @Test func openingFinishesOrUndoesOnlyAnInterruptedChange() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = try PhotoFixtures.jpeg(seed: 10), late = try PhotoFixtures.jpeg(seed: 11)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: kept, options: nil)
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: late, options: nil)
        }
        let originals = library.url.appendingPathComponent("originals"), staging = originals.appendingPathComponent(".staging")
        let lateName = PhotoStore.storedName(digest: PhotoStore.sha256(late), fileExtension: "jpg")
        try FileManager.default.moveItem(at: originals.appendingPathComponent(lateName),
                                         to: staging.appendingPathComponent(PhotoStore.sha256(late) + ".jpg"))
        let lateAsset = try #require(library.fetchAssets().lastObject)
        #expect(try PhotoFixtures.data(of: try #require(PHAssetResource.assetResources(for: lateAsset).first)) == late)
        try Data("half".utf8).write(to: staging.appendingPathComponent(".tmp-\(UUID().uuidString)"))
        try Data("never committed".utf8).write(to: staging.appendingPathComponent(String(repeating: "e", count: 64) + ".jpg"))
        let stray = PhotoStore.storedName(digest: String(repeating: "f", count: 64), fileExtension: "jpg")
        try FileManager.default.createDirectory(at: originals.appendingPathComponent("ff"), withIntermediateDirectories: true)
        try Data("from a backup".utf8).write(to: originals.appendingPathComponent(stray))
        let reopened = PHPhotoLibrary(url: library.url)
        let store = try reopened.store()
        #expect(store.recovered == (temporaryFiles: 1, interruptedFiles: 1, finishedFiles: 1))
        #expect(reopened.fetchAssets().count == 2)
        #expect(PhotoFixtures.storedFiles(reopened) == [PhotoStore.storedName(digest: PhotoStore.sha256(kept), fileExtension: "jpg"),
                                                         lateName, stray].sorted())
        #expect(try PHPhotoLibrary(url: library.url).store().recovered == (0, 0, 0))
    }
}
