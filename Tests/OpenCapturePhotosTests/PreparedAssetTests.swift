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

    /// A DNG LibRaw cannot read — a 2×2 one, one whose tile table is short — is refused as Photos refuses a raw it
    /// cannot read, naming the file and why, whether it is the photo or a JPEG's RAW: it was stored, whole as a TIFF,
    /// and then never shown (the studio's thumbnail and developed view failed). A readable DNG is still saved.
    @Test func dngsLibRawCannotReadAreRefused() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try PhotoFixtures.jpeg(seed: 5)
        for (name, dng) in [("tiny.dng", try UnreadableDNGFixture.tiny()), ("short-tiles.dng", try UnreadableDNGFixture.shortTileTable())] {
            #expect(throws: (any Error).self, "\(name) reads") { try RawFileReader.read(dng) }
            for resources in [[(PHAssetResourceType.photo, name, dng)], [(.photo, "raw.jpg", photo), (.alternatePhoto, name, dng)]] {
                let error = try Self.refusal(resources, in: folder, library: library)
                #expect(error?.code == .invalidResource && error?.reason.contains("\(name)) is a DNG that cannot be read: ") == true,
                        "\(resources.map(\.1)): \(String(describing: error))")
            }
        }
        #expect(library.fetchAssets().count == 0 && PhotoFixtures.storedFiles(library).isEmpty)
        let tiled = try UnreadableDNGFixture.dng(width: 600, height: 24, compression: .losslessJPEG)
        #expect(try Self.refusal([(.photo, "whole.dng", try PhotoFixtures.dng())], in: folder, library: library) == nil)
        #expect(try Self.refusal([(.photo, "tiled.dng", tiled)], in: folder, library: library) == nil)
    }

    /// A JPEG whose frame header claims far more pixels than its image data can hold (65500×65500, or 256×192, over a
    /// 64×48 picture's data) is a damaged file: refused naming the size it claims, not stored with it. A real photo of
    /// one flat colour — the least data a frame can take — is saved at its size.
    @Test func aJPEGWhoseHeaderClaimsMoreThanItsDataHoldsIsRefused() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = try JPEGEncoder.encode(Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 120))
        for (width, height) in [(65500, 65500), (256, 192)] {
            let lying = try Self.claiming(width: width, height: height, small)
            let error = try Self.refusal([(.photo, "lying.jpg", lying)], in: folder, library: library)
            #expect(error?.code == .invalidResource && error?.reason.contains("lying.jpg") == true
                    && error?.reason.contains("\(width)×\(height)") == true, "\(String(describing: error))")
        }
        #expect(library.fetchAssets().count == 0 && PhotoFixtures.storedFiles(library).isEmpty)
        let flat = try JPEGEncoder.encode(Raster<UInt8>(width: 2048, height: 1536, channels: 3, repeating: 128))
        #expect(try Self.refusal([(.photo, "flat.jpg", flat)], in: folder, library: library) == nil)
        #expect(try Self.refusal([(.photo, "small.jpg", small)], in: folder, library: library) == nil)
        let assets = library.fetchAssets()
        let sizes = (0..<assets.count).map { [assets.object(at: $0).pixelWidth, assets.object(at: $0).pixelHeight] }
        #expect(Set(sizes) == [[2048, 1536], [64, 48]], "\(sizes)")
    }

    /// `jpeg` with its frame header's size replaced.
    static func claiming(width: Int, height: Int, _ jpeg: Data) throws -> Data {
        var bytes = [UInt8](jpeg)
        let frame = try #require(try JPEGSegments.segments(in: jpeg).first { $0.marker == 0xC0 || $0.marker == 0xC2 })
        let p = frame.payload.lowerBound
        (bytes[p + 1], bytes[p + 2], bytes[p + 3], bytes[p + 4]) = (UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255))
        return Data(bytes)
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

/// Every refusal names its file (and, in a change of several requests, which request), in words.
@Suite struct PreparedAssetErrorTests {
    @Test func errorsNameTheFileAndTheRequest() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg(seed: 71), heic = try PhotoFixtures.portraitHEIC, dng = try PhotoFixtures.dng()
        let subfolder = try folder.appendingPathComponent("IMG_0001.JPG").creatingFolder()
        let cases: [([(PHAssetResourceType, String, Data)], String)] = [
            ([(.photo, "empty.jpg", Data())], "resource 1 (.photo, empty.jpg) is empty"),
            ([(.photo, "head.jpg", jpeg.prefix(100))], "resource 1 (.photo, head.jpg) cannot be read: data truncated"),
            ([(.photo, "head.heic", heic.prefix(300))], "resource 1 (.photo, head.heic) is a damaged HEIF: data truncated"),
            ([(.photo, "head.dng", dng.prefix(300))], "resource 1 (.photo, head.dng) is a damaged "),
            ([(.photo, "a.jpg", jpeg), (.video, "b.mov", PhotoFixtures.movie)],
             "an asset needs exactly one .photo, .video or .audio resource (got .photo, .video)"),
        ]
        for (resources, why) in cases {
            let error = try PreparedAssetTests.refusal(resources, in: folder, library: library)
            #expect(error?.code == .invalidResource && error?.reason.hasPrefix(why) == true, "\(String(describing: error))")
            #expect(error?.reason.contains("OpenCapturePhotos.") == false)
        }
        // A folder where a file should be; the second of two requests.
        let errors = [{ PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: subfolder, options: nil) },
                      {
                          PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpeg, options: nil)
                          PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: folder.appendingPathComponent("gone.jpg"), options: nil)
                      }].map { block -> PHPhotosError? in
            do { try library.performChangesAndWait(block); return nil } catch { return error as? PHPhotosError }
        }
        #expect(errors[0]?.code == .invalidResource && errors[0]?.reason == "resource 1 (.photo, IMG_0001.JPG) is a folder, not a file (\(subfolder.path))",
                "\(String(describing: errors[0]))")
        #expect(errors[1]?.code == .missingResource, "\(String(describing: errors[1]))")
        // A device is no photo, and says so (it read as "permission denied", or would be read for ever).
        do {
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: URL(fileURLWithPath: "/dev/zero"), options: nil)
            }
            Issue.record("/dev/zero was accepted")
        } catch let error as PHPhotosError {
            #expect(error.code == .invalidResource && error.reason.contains("not a regular file"), "\(error)")
        }
        #expect(errors[1]?.reason == "creation request 2 of 2: resource 1 (.photo, gone.jpg): there is no file at \(folder.path)/gone.jpg",
                "\(String(describing: errors[1]))")
        #expect(library.fetchAssets().count == 0)
    }
}

/// A declared uniform type identifier must agree with the data; the data's precise type is stored.
@Suite struct PreparedAssetTypeTests {
    @Test func aDeclaredTypeThatContradictsTheDataIsRefused() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg(seed: 131), heic = try PhotoFixtures.portraitHEIC
        func save(_ data: Data, as type: String) throws -> String {
            let options = PHAssetResourceCreationOptions()
            options.uniformTypeIdentifier = type
            var id = ""
            try library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: data, options: options)
                id = request.placeholderForCreatedAsset?.localIdentifier ?? ""
            }
            let asset = try #require(library.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
            return try #require(PHAssetResource.assetResources(for: asset).first).uniformTypeIdentifier
        }
        do {
            _ = try save(jpeg, as: "public.png")
            Issue.record("JPEG bytes were saved as public.png")
        } catch let error as PHPhotosError {
            #expect(error.code == .invalidResource && error.reason == "resource 1 (.photo) is declared public.png but holds JPEG data (public.jpeg)",
                    "\(error)")
        }
        #expect(library.fetchAssets().count == 0)
        #expect(try save(jpeg, as: "public.jpeg") == "public.jpeg")
        #expect(try save(jpeg, as: "public.image") == "public.jpeg")
        #expect(try save(heic, as: "public.heif") == "public.heic")
    }
}

private extension URL {
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
