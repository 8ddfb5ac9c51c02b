import Foundation
import Testing
@testable import OpenCapturePhotos

@Suite struct PHFetchOptionsTests {
    /// A request's `isHidden` is kept: fetches leave the asset out unless `includeHiddenAssets` is set.
    @Test func hiddenAssetsAreFetchedOnlyWhenAskedFor() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        var hidden = "", shown = ""
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 101), options: nil)
            request.isHidden = true
            hidden = request.placeholderForCreatedAsset?.localIdentifier ?? ""
            let other = PHAssetCreationRequest.forAsset()
            other.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 102), options: nil)
            shown = other.placeholderForCreatedAsset?.localIdentifier ?? ""
        }
        let all = PHFetchOptions()
        all.includeHiddenAssets = true
        #expect(library.fetchAssets().firstObject?.localIdentifier == shown && library.fetchAssets().count == 1)
        #expect(library.fetchAssets(with: .image, options: nil).count == 1)
        #expect(library.fetchAssets(withLocalIdentifiers: [hidden, shown], options: nil).count == 1)
        let everything = library.fetchAssets(with: all)
        #expect(everything.count == 2)
        #expect(Set((0..<2).map { everything[$0].isHidden }) == [false, true])
        #expect(library.fetchAssets(withLocalIdentifiers: [hidden], options: all).firstObject?.isHidden == true)
    }

    /// `NSSortDescriptor(keyPath: \PHAsset.isFavorite, ascending:)` compiles (a `Bool` key path) and sorts.
    @Test func assetsSortByAFlag() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            for (seed, favorite) in [(121, false), (122, true), (123, false)] {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: seed, width: seed - 100), options: nil)
                request.isFavorite = favorite
            }
        }
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.isFavorite, ascending: false),
                                   NSSortDescriptor(keyPath: \PHAsset.pixelWidth, ascending: true)]
        let sorted = library.fetchAssets(with: options)
        #expect((0..<3).map { sorted[$0].pixelWidth } == [22, 21, 23])
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.isFavorite, ascending: true)]
        #expect(library.fetchAssets(with: options).lastObject?.isFavorite == true)
    }
}
