import CaptureCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaFormats
import OpenCapturePhotos
import OpenCaptureTestSupport
import Testing
@testable import OpenCaptureStudio

/// Photos a user imports that are not the studio's own captures: a CMYK JPEG, a transparent PNG, a file that does not
/// decode — shown as other viewers show them, or refused naming the file as the user knows it.
@Suite(.serialized, .timeLimit(.minutes(1))) struct StudioLibraryPhotoTests {
    /// Adds each (file name, bytes) as a photo asset; returns their short identifiers.
    static func add(_ files: [(String, Data)], to studio: StudioServerTests.Running) throws -> [String] {
        var ids: [String] = []
        try studio.server.library.performChangesAndWait {
            for (name, data) in files {
                let url = studio.folder.appendingPathComponent(name)
                try? data.write(to: url)
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, fileURL: url, options: nil)
                ids.append(String(request.placeholderForCreatedAsset!.localIdentifier.prefix(36)))
            }
        }
        return ids
    }

    /// A CMYK JPEG (Photoshop's inverted convention, as ImageMagick's `-colorspace CMYK` writes it) was imported and
    /// then a 422 for its thumbnail and photo: it shows as browsers show it.
    @Test func aCMYKJPEGsThumbnailAndPhotoAreServed() async throws {
        let studio = try await StudioServerTests.Running()
        defer { studio.stop() }
        // Left half cyan ink (0, 255, 255 shown), right half 50 % black (128 grey); stored inverted with Adobe's APP14.
        // Larger than a thumbnail, so the studio decodes it to scale it (a photo small enough is sent as it is).
        var cmyk = Raster<UInt8>(width: 480, height: 360, channels: 4)
        for y in 0..<360 { for x in 0..<480 {
            let ink: [UInt8] = x < 240 ? [255, 0, 0, 0] : [0, 0, 0, 128]
            for c in 0..<4 { cmyk[x, y, c] = 255 - ink[c] }
        } }
        let ids = try Self.add([("print.jpg", try JPEGEncoder.encodeCMYK(cmyk))], to: studio)
        for path in ["thumbnail.jpg", "photo.jpg"] {
            let r = try await studio.request("/api/assets/\(ids[0])/\(path)")
            #expect(r.status == 200 && r.type == "image/jpeg", "\(path): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
            guard r.status == 200 else { continue }
            let shown = try JPEGDecoder.decode(r.body)
            let left = (0..<3).map { Int(shown[shown.width / 8, shown.height / 2, $0]) }
            let right = (0..<3).map { Int(shown[shown.width * 7 / 8, shown.height / 2, $0]) }
            #expect(left[0] < 12 && left[1] > 243 && left[2] > 243, "\(path) cyan: \(left)")
            #expect(right.allSatisfy { abs($0 - 127) <= 6 }, "\(path) grey: \(right)")
        }
    }

    /// A transparent PNG's thumbnail shows it over white, as a page shows it: its hidden pixels (stored black here) were
    /// shown, as the alpha was dropped.
    @Test func aTransparentPNGShowsOverWhite() async throws {
        let studio = try await StudioServerTests.Running()
        defer { studio.stop() }
        var rgba = Raster<UInt8>(width: 64, height: 48, channels: 4)
        for y in 0..<48 { for x in 0..<64 {
            let pixel: [UInt8] = x < 32 ? [0, 0, 0, 0] : [200, 40, 40, 255]
            for c in 0..<4 { rgba[x, y, c] = pixel[c] }
        } }
        let ids = try Self.add([("sticker.png", try PNGCodec.encode(rgba))], to: studio)
        let r = try await studio.request("/api/assets/\(ids[0])/thumbnail.jpg")
        #expect(r.status == 200 && r.type == "image/jpeg")
        let shown = try JPEGDecoder.decode(r.body)
        let left = (0..<3).map { Int(shown[8, 24, $0]) }, right = (0..<3).map { Int(shown[56, 24, $0]) }
        #expect(left.allSatisfy { $0 > 245 }, "transparent half: \(left)")
        #expect(right[0] > 180 && right[1] < 70, "opaque half: \(right)")
    }

    /// A photo that does not decode is a 422 naming its file as imported (`broken.png`), not the library's stored name
    /// (the SHA-256 of its bytes), which means nothing to the user.
    @Test func aDecodeErrorNamesTheOriginalFile() async throws {
        let studio = try await StudioServerTests.Running()
        defer { studio.stop() }
        let broken = try Self.pngWithHalfItsImageData(Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 90))
        let ids = try Self.add([("broken.png", broken)], to: studio)
        let asset = try #require(studio.server.library.fetchAssets(with: PHFetchOptions()).firstObject)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let stored = try PHAssetResourceManager.default().fileURL(for: resource).deletingPathExtension().lastPathComponent
        for path in ["thumbnail.jpg", "photo.jpg", "portrait.jpg"] {
            let r = try await studio.request("/api/assets/\(ids[0])/\(path)")
            let error = studio.json(r.body)["error"] as? String ?? ""
            #expect(r.status >= 400 && r.type == "application/json", "\(path): \(r.status)")
            #expect(error.contains("broken.png") && !error.contains(stored), "\(path): \(error)")
        }
    }

    /// `image` as a PNG whose IDAT holds only the first half of its zlib stream (its CRC right): whole as a file, the
    /// library takes it; its pixels do not decode.
    static func pngWithHalfItsImageData(_ image: Raster<UInt8>) throws -> Data {
        let png = [UInt8](try PNGCodec.encode(image))
        var out = Array(png[0..<8]), offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = Array(png[offset + 4..<offset + 8])
            var body = Array(png[offset + 8..<offset + 8 + length])
            if type == Array("IDAT".utf8) { body = Array(body.prefix(body.count / 2)) }
            let count = UInt32(body.count)
            out += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + type + body
            let crc = crc32(type + body)
            out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
            offset += 12 + length
        }
        return Data(out)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
