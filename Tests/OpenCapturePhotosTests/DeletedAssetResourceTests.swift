import Foundation
import Testing
@testable import OpenCapturePhotos

/// A resource fetched before its asset was deleted: reading it says the asset was deleted, not that a file is missing
/// and "can be read again once the file is back".
@Suite struct DeletedAssetResourceTests {
    @Test func readingADeletedAssetsResourceSaysSo() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 71), options: nil)
        }
        let asset = try #require(library.fetchAssets().firstObject)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        // Until then its stored file is there to read in place (inside the library's originals), the same bytes.
        let stored = try PHAssetResourceManager.default().fileURL(for: resource)
        #expect(stored.path.hasPrefix(folder.appendingPathComponent("Photos/originals").path + "/"), "\(stored.path)")
        #expect(try Data(contentsOf: stored) == (try PhotoFixtures.jpeg(seed: 71)))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        let error = try #require(throws: PHPhotosError.self) { try PHAssetResourceManager.default().data(for: resource) }
        #expect(error.code == .identifierNotFound)
        #expect(error.reason.contains("no longer holds") && !error.reason.contains("once the file is back"))
        let located = try #require(throws: PHPhotosError.self) { try PHAssetResourceManager.default().fileURL(for: resource) }
        #expect(located == error)
    }
}
