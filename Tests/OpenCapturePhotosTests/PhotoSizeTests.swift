import CaptureCore
import Foundation
import GRDB
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapturePhotos

/// A photo asset's pixelWidth and pixelHeight are the size Photos reports for it.
@Suite struct PhotoSizeTests {
    /// Saves `data` as a photo asset named `name` and fetches it.
    static func save(_ data: Data, named name: String, in library: PHPhotoLibrary, folder: URL) throws -> PHAsset {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: url, options: nil) }
        return try #require(library.fetchAssets().firstObject)
    }

    /// A RAW-only DNG is its raw image's size as developed (32×24), not its IFD0 preview's.
    @Test func aDNGIsSizedByItsRawImageNotItsPreview() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dng = try PhotoFixtures.dng()
        let preview = try #require(try TIFFTagReader(dng).mainDirectories().first)
        #expect(preview.integer(256) != 32, "IFD0 is the preview")
        let asset = try Self.save(dng, named: "raw.dng", in: library, folder: folder)
        #expect(asset.pixelWidth == 32 && asset.pixelHeight == 24, "\(asset.pixelWidth)×\(asset.pixelHeight)")
    }
}
