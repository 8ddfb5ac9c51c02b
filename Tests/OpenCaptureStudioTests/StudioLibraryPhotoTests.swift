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

}
