import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapturePhotos

/// Resources are checked whole before anything is saved, with MediaFormats' readers.
@Suite struct PreparedAssetTests {
    /// Saves one asset of `resources` (type, file name, bytes) and returns why it was refused (nil: saved).
    static func refusal(_ resources: [(PHAssetResourceType, String, Data)], in folder: URL, library: PHPhotoLibrary) throws -> PHPhotosError? {
        let urls = try resources.map { _, name, data -> URL in
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }
        do {
            try library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                for (resource, url) in zip(resources, urls) { request.addResource(with: resource.0, fileURL: url, options: nil) }
            }
            return nil
        } catch let error as PHPhotosError {
            return error
        }
    }

    /// Files cut short with their headers intact — a PNG before IEND, a TIFF inside its strips, a movie inside its
    /// media or before its `moov` — are refused naming the file, and nothing is stored.
    @Test func damagedFilesAreRefused() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try PNGCodec.encode(Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 90))
        let tiff = PhotoFixtures.tiffDirectoryFirst()
        let (still, movieURL) = try LivePhotoPairFixture.make(in: folder)
        let movie = try Data(contentsOf: movieURL), photo = try Data(contentsOf: still), dng = try PhotoFixtures.dng()
        let cases: [([(PHAssetResourceType, String, Data)], String)] = [
            ([(.photo, "cut.png", png.prefix(png.count - 12))], "cut.png) is a damaged PNG: data truncated"),
            ([(.photo, "half.tif", tiff.prefix(tiff.count - 10))], "half.tif) is a damaged TIFF: data truncated"),
            ([(.photo, "raw.jpg", photo), (.alternatePhoto, "cut.dng", dng.prefix(dng.count - 100))], "cut.dng) is a damaged DNG: data truncated"),
            ([(.video, "half.mov", movie.prefix(movie.count / 2))], "half.mov) is a movie that cannot be read"),
            ([(.video, "header.mov", PhotoFixtures.movie)], "header.mov) is a movie that cannot be read: no moov box"),
            ([(.photo, "live.jpg", photo), (.pairedVideo, "live.mov", movie.prefix(movie.count / 2))], "live.mov) is a movie that cannot be read"),
            ([(.audio, "sound.m4a", photo)], "sound.m4a) is a JPEG image, not audio"),
            ([(.audio, "sound.m4a", PhotoFixtures.movie)], "sound.m4a) is a movie that cannot be read: no moov box"),
        ]
        for (resources, why) in cases {
            let error = try Self.refusal(resources, in: folder, library: library)
            #expect(error?.code == .invalidResource && error?.reason.contains(why) == true, "\(resources.map(\.1)): \(String(describing: error))")
        }
        #expect(library.fetchAssets().count == 0 && PhotoFixtures.storedFiles(library).isEmpty)
        // The same files whole are saved; an MPEG-4 file with a sound track is audio.
        for resources in [[(PHAssetResourceType.photo, "whole.png", png)], [(.photo, "whole.tif", tiff)], [(.video, "whole.mov", movie)],
                          [(.audio, "whole.m4a", movie)]] {
            #expect(try Self.refusal(resources, in: folder, library: library) == nil, "\(resources[0].1)")
        }
        #expect(library.fetchAssets().count == 4)
    }

    /// Photos pairs a photo and a movie only when both carry the same content identifier: a pair where either has
    /// none, or they differ, is refused naming both files.
    @Test func aLivePhotoNeedsTheSameContentIdentifierInBothFiles() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (still, movieURL) = try LivePhotoPairFixture.make(in: folder)
        let paired = try Data(contentsOf: movieURL), photo = try Data(contentsOf: still)
        let (_, otherMovie) = try LivePhotoPairFixture.make(in: folder.appendingPathComponent("other").creatingFolder(),
                                                            identifier: "0E5D8C1A-2B3C-4D5E-8F90-A1B2C3D4E5F6")
        let plainPhoto = try PhotoFixtures.jpeg(seed: 61), plainMovie = try PhotoFixtures.unpairedMovie()
        let cases: [(Data, Data, String)] = [
            (plainPhoto, plainMovie, "neither carries a content identifier"),
            (plainPhoto, paired, "the photo carries no content identifier"),
            (photo, plainMovie, "the movie carries no com.apple.quicktime.content.identifier"),
            (photo, try Data(contentsOf: otherMovie), "their content identifiers differ"),
        ]
        for (still, movie, why) in cases {
            let error = try Self.refusal([(.photo, "IMG_1.JPG", still), (.pairedVideo, "IMG_1.MOV", movie)], in: folder, library: library)
            #expect(error?.code == .invalidResource, "\(why): \(String(describing: error))")
            let named = "resource 1 (.photo, IMG_1.JPG) and resource 2 (.pairedVideo, IMG_1.MOV) cannot be paired as a Live Photo: "
            #expect(error?.reason.hasPrefix(named + why) == true, "\(String(describing: error))")
        }
        #expect(library.fetchAssets().count == 0)
        #expect(try Self.refusal([(.photo, "IMG_1.JPG", photo), (.pairedVideo, "IMG_1.MOV", paired)], in: folder, library: library) == nil)
        #expect(library.fetchAssets().firstObject?.mediaSubtypes == .photoLive)
    }
}

private extension URL {
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
