/*
 A photo saved with the async form of performChanges from main-actor code (a view model), as Swift 6-era samples save
 it; this target is in Swift 5 mode, so it checks that such a client compiles in Swift 5 too (the Swift 6 client is in
 OpenCapturePhotosTests).
*/

#if canImport(Photos)
import Photos
#else
import OpenCapturePhotos
import OpenCaptureTestSupport
#endif
import Foundation
import XCTest

@MainActor final class PhotoSavingModel {
    private(set) var savedIdentifiers: [String] = []

    func save(_ photo: Data, to library: PHPhotoLibrary) async throws {
        var placeholder: PHObjectPlaceholder?
        try await library.performChanges {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: photo, options: nil)
            placeholder = request.placeholderForCreatedAsset
        }
        savedIdentifiers.append(placeholder?.localIdentifier ?? "")
    }
}

#if !canImport(Photos)
final class MainActorPhotoSavingTests: XCTestCase {
    func testAMainActorModelSavesWithTheAsyncForm() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = PHPhotoLibrary(url: folder.appendingPathComponent("Photos", isDirectory: true))
        let photo = try Data(contentsOf: try LivePhotoPairFixture.make(in: folder).still)
        let model = await PhotoSavingModel()
        try await model.save(photo, to: library)
        let saved = await model.savedIdentifiers
        XCTAssertEqual(saved.count, 1)
        XCTAssertEqual(library.fetchAssets(withLocalIdentifiers: saved, options: nil).count, 1)
    }
}
#endif
