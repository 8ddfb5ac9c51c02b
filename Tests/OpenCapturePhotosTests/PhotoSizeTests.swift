import CaptureCore
import Foundation
import GRDB
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapturePhotos

/// A photo asset's pixelWidth and pixelHeight are the size Photos reports for it: as shown, its orientation applied.
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

    /// EXIF with `orientation`.
    static func exif(_ orientation: Int) -> ExifMetadata {
        var exif = ExifMetadata()
        exif.orientation = orientation
        return exif
    }

    /// A 64×48 JPEG tagged with each EXIF orientation is 48×64 when the tag turns it a quarter (5–8), else 64×48.
    @Test(arguments: 1...8)
    func aJPEGIsSizedAsItsOrientationShowsIt(orientation: Int) throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try JPEGEncoder.encode(Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 90), exif: Self.exif(orientation))
        let asset = try Self.save(jpeg, named: "turned.jpg", in: library, folder: folder)
        let expected = orientation >= 5 ? (48, 64) : (64, 48)
        #expect(asset.pixelWidth == expected.0 && asset.pixelHeight == expected.1, "\(orientation): \(asset.pixelWidth)×\(asset.pixelHeight)")
    }

    /// A TIFF's and a DNG's Orientation tag turn them alike; a HEIC is already stored as shown (its irot turns it: the
    /// same orientation in its EXIF is not applied a second time).
    @Test func tiffDNGAndHEICAreSizedAsShown() throws {
        let image = Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 90)
        var heif = HEIFEncodingOptions()
        heif.exif = Self.exif(6)
        heif.orientation = 6
        heif.tileSize = 64
        var bayer = Raster<UInt16>(width: 32, height: 24)
        for y in 0..<24 { for x in 0..<32 { bayer[x, y] = UInt16(600 + x * 200 + y * 10) } }
        let raw = RawImage(bayer: bayer, cfa: .rggb, bitDepth: 14, blackLevel: [512, 512, 512, 512], whiteLevel: 16383,
                           asShotNeutral: SIMD3(0.5, 1, 0.6), cameraToSRGB: .identity,
                           noiseProfile: [(2e-5, 1e-7)], exposure: ExposureRecord(duration: 1.0 / 60, iso: 100))
        let dng = try DNGWriter.write(raw, metadata: DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Test", exif: Self.exif(8)),
                                      preview: nil)
        let cases: [(String, Data, Int, Int)] = [
            ("turned.tif", try TIFFCodec.encode(image, orientation: 6), 48, 64),
            ("turned.dng", dng, 24, 32),
            ("turned.heic", try HEIFEncoder.encode(image, options: heif), 48, 64),
        ]
        for (name, data, width, height) in cases {
            let (library, folder) = try PhotoFixtures.library()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = try Self.save(data, named: name, in: library, folder: folder)
            #expect(asset.pixelWidth == width && asset.pixelHeight == height, "\(name): \(asset.pixelWidth)×\(asset.pixelHeight)")
        }
    }

    /// A library that saved a turned photo at its stored size (before v6): opening it turns the size once.
    @Test func earlierTurnedPhotosAreResizedOnce() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try JPEGEncoder.encode(Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 90), exif: Self.exif(6))
        let plain = try PhotoFixtures.jpeg(seed: 3, width: 40, height: 30)
        _ = try Self.save(jpeg, named: "turned.jpg", in: library, folder: folder)
        _ = try Self.save(plain, named: "plain.jpg", in: library, folder: folder)
        let database = try DatabaseQueue(path: library.url.appendingPathComponent("Photos.sqlite").path)
        try database.write { db in
            try db.execute(sql: "UPDATE asset SET pixelWidth = 64, pixelHeight = 48 WHERE pixelWidth = 48")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v6:%'")
        }
        try database.close()
        let assets = PHPhotoLibrary(url: library.url).fetchAssets()
        let sizes = Set((0..<assets.count).map { [assets.object(at: $0).pixelWidth, assets.object(at: $0).pixelHeight] })
        #expect(sizes == [[48, 64], [40, 30]], "\(sizes)")
    }
}
