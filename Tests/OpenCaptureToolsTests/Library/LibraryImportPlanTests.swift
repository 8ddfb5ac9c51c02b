import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import OpenCaptureTools
import Testing

@Suite struct LibraryImportPlanTests {
    private func photo(_ seed: Int, at url: URL, png: Bool = false) throws -> URL {
        var image = Raster<UInt8>(width: 16, height: 12, channels: 3)
        for i in image.storage.indices { image.storage[i] = UInt8((i * 7 + seed * 31) & 255) }
        try (png ? PNGCodec.encode(image) : JPEGEncoder.encode(image, quality: 90)).write(to: url)
        return url
    }

    private func roles(_ plan: LibraryImportPlan) -> [[String]] {
        plan.assets.map { $0.resources.map { "\($0.role):\($0.file.lastPathComponent)" } }
    }

    /// A still and the movie carrying its content identifier are one Live Photo; with a RAW of the same name too.
    @Test func aLivePhotoPairAndItsRawAreOneAsset() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder)
        let raw = folder.appendingPathComponent("IMG_0001.DNG")
        try DevelopFixtures.frame.dng.write(to: raw)
        let plan = LibraryImportPlan(files: [pair.movie, raw, pair.still])
        #expect(roles(plan) == [["photo:IMG_0001.JPG", "alternatePhoto:IMG_0001.DNG", "pairedVideo:IMG_0001.MOV"]])
        #expect(plan.notes.isEmpty)
    }

    /// Two photos of one name (a HEIC and a JPEG of different shots), or two videos, are assets of their own: none is
    /// dropped and none is taken as the other's companion.
    @Test func filesOfOneNameThatDoNotBelongTogetherAreSeparateAssets() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try photo(1, at: folder.appendingPathComponent("x.jpg"))
        let png = try photo(2, at: folder.appendingPathComponent("x.png"), png: true)
        #expect(roles(LibraryImportPlan(files: [jpeg, png])) == [["photo:x.jpg"], ["photo:x.png"]])

        let pair = try LivePhotoPairFixture.make(in: folder)
        let copy = folder.appendingPathComponent("IMG_0001.mp4")
        try FileManager.default.copyItem(at: pair.movie, to: copy)
        // The still pairs with the first movie carrying its identifier; the other movie is a video.
        #expect(roles(LibraryImportPlan(files: [pair.still, pair.movie, copy]))
                == [["photo:IMG_0001.JPG", "pairedVideo:IMG_0001.MOV"], ["video:IMG_0001.mp4"]])
        // Two movies and no still: two videos.
        #expect(roles(LibraryImportPlan(files: [pair.movie, copy])) == [["video:IMG_0001.MOV"], ["video:IMG_0001.mp4"]])
    }

    /// A movie of the still's name without its content identifier is a video beside it, and the user is told why.
    @Test func aMovieWithoutTheStillsIdentifierIsAVideoOfItsOwn() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder, pairingAtoms: false)
        let plan = LibraryImportPlan(files: [pair.still, pair.movie])
        #expect(roles(plan) == [["photo:IMG_0001.JPG"], ["video:IMG_0001.MOV"]])
        #expect(plan.notes == ["IMG_0001.MOV is imported as a video of its own: it is not the Live Photo movie of IMG_0001.JPG "
                               + "(it does not carry the photo's content identifier)"])
    }

    /// Kinds come from the bytes (a PNG named .mov is a photo); an unreadable file keeps its extension's kind.
    @Test func kindsComeFromTheBytes() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disguised = try photo(3, at: folder.appendingPathComponent("a.mov"), png: true)
        let missing = folder.appendingPathComponent("b.mov")
        #expect(roles(LibraryImportPlan(files: [disguised, missing])) == [["photo:a.mov"], ["video:b.mov"]])
    }
}
