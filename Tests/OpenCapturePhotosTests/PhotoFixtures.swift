import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
@testable import OpenCapturePhotos

/// Small real files for the library tests, and a library in a new temporary folder.
enum PhotoFixtures {
    static func library() throws -> (PHPhotoLibrary, URL) {
        let folder = try ExternalTool.temporaryDirectory()
        return (PHPhotoLibrary(url: folder.appendingPathComponent("Photos", isDirectory: true)), folder)
    }

    /// A 64×48 JPEG whose pixels depend on `seed` (different seeds, different bytes).
    static func jpeg(seed: Int = 1, width: Int = 64, height: Int = 48) throws -> Data {
        var image = Raster<UInt8>(width: width, height: height, channels: 3)
        for y in 0..<height { for x in 0..<width { for c in 0..<3 { image[x, y, c] = UInt8((x * 3 + y * 5 + c * 40 + seed * 17) % 256) } } }
        return try JPEGEncoder.encode(image, quality: 90)
    }

    /// A 32×24 DNG of a grey ramp.
    static func dng() throws -> Data {
        var bayer = Raster<UInt16>(width: 32, height: 24)
        for y in 0..<24 { for x in 0..<32 { bayer[x, y] = UInt16(600 + x * 200 + y * 10) } }
        let raw = RawImage(bayer: bayer, cfa: .rggb, bitDepth: 14, blackLevel: [512, 512, 512, 512], whiteLevel: 16383,
                           asShotNeutral: SIMD3(0.5, 1, 0.6), cameraToSRGB: .identity,
                           noiseProfile: [(2e-5, 1e-7)], exposure: ExposureRecord(duration: 1.0 / 60, iso: 100))
        return try DNGWriter.write(raw, metadata: DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Test", exif: ExifMetadata()),
                                   preview: nil)
    }

    /// The first bytes of a QuickTime movie (`ftyp` and an empty `mdat`, no `moov`): what a movie cut short before its
    /// header looks like.
    static let movie = Data([0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 2, 0] + Array("qt  ".utf8) + [0, 0, 0, 8] + Array("mdat".utf8))

    /// A 64×48, 5-frame H.264 QuickTime movie without any Live Photo pairing.
    static func unpairedMovie() throws -> Data {
        let url = try ExternalTool.temporaryDirectory().appendingPathComponent("unpaired.mov")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var settings = MovieSettings(codec: .h264, width: 64, height: 48, frameRate: 15)
        settings.preset = "ultrafast"
        let writer = try MovieWriter(url: url, settings: settings)
        for frame in 0..<5 {
            let image = Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: UInt8(60 + frame * 20))
            try writer.append(PixelBuffer.yCbCr420(from: image, fullRange: false, matrix: settings.yCbCrMatrix)!, at: Double(frame) / 15)
        }
        try writer.finish()
        return try Data(contentsOf: url)
    }

    /// A grey `width`×`height` baseline TIFF with its directory first and its one strip after it (as PIL writes them),
    /// so cutting the file loses image data but not the directory.
    static func tiffDirectoryFirst(width: Int = 8, height: Int = 8) -> Data {
        var data = Data("II".utf8) + [42, 0] + le32(8)
        let entries: [(UInt16, UInt16, Int)] = [(256, 3, width), (257, 3, height), (258, 3, 8), (259, 3, 1), (262, 3, 1),
                                                 (273, 4, 8 + 2 + 9 * 12 + 4), (277, 3, 1), (278, 3, height), (279, 4, width * height)]
        data += le16(entries.count)
        for (tag, type, value) in entries {
            data += le16(Int(tag)) + le16(Int(type)) + le32(1) + (type == 3 ? le16(value) + [0, 0] : le32(value))
        }
        data += le32(0)
        data += (0..<width * height).map { UInt8(($0 * 7) & 255) }
        return data
    }

    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8((v >> 8) & 255)] }
    private static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 255) } }

    /// The real iPhone dual-camera portrait in the repository (it carries depth).
    static var portraitHEIC: Data {
        get throws {
            try Data(contentsOf: SharedData.repositoryRoot.appendingPathComponent("Tests/Fixtures/MediaFormats/Real/iphone-dual-portrait-pug.heic"))
        }
    }

    /// Every file the library's store holds (not its database), as paths below `originals`.
    static func storedFiles(_ library: PHPhotoLibrary) -> [String] {
        let originals = library.url.appendingPathComponent("originals")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: originals.path)) ?? []
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: originals.appendingPathComponent(folder).path)) ?? []).map { "\(folder)/\($0)" }
        }.sorted()
    }

    static func data(of resource: PHAssetResource) throws -> Data {
        let received = LockedData()
        let done = DispatchSemaphore(value: 0)
        let failure = LockedError()
        PHAssetResourceManager.default().requestData(for: resource, options: nil) { received.append($0) } completionHandler: { error in
            failure.set(error)
            done.signal()
        }
        done.wait()
        if let error = failure.get() { throw error }
        return received.get()
    }
}

final class LockedData: @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `data`.
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.withLock { data.append(more) } }
    func get() -> Data { lock.withLock { data } }
}

final class LockedError: @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `error`.
    private let lock = NSLock()
    private var error: (any Error)?
    func set(_ value: (any Error)?) { lock.withLock { error = value } }
    func get() -> (any Error)? { lock.withLock { error } }
}
