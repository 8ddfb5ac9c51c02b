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

    /// The first bytes of a QuickTime movie: enough for a Live Photo's paired video resource.
    static let movie = Data([0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 2, 0] + Array("qt  ".utf8) + [0, 0, 0, 8] + Array("mdat".utf8))

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
