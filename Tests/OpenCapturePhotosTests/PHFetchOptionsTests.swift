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
}
