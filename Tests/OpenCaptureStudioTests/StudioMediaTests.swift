import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCaptureStudio

/// What the page shows of a photo: thumbnails and previews as every reader shows the original.
@Suite struct StudioMediaTests {
    /// A `width`×`width/2` JPEG stored with its left half red and its right half blue, tagged with `orientation`.
    static func halves(orientation: Int, width: Int = 64) throws -> Data {
        let height = width / 2
        var image = Raster<UInt8>(width: width, height: height, channels: 3)
        for y in 0..<height { for x in 0..<width { image.storage[3 * (y * width + x) + (x < height ? 0 : 2)] = 255 } }
        var exif = ExifMetadata()
        exif.orientation = orientation
        return try JPEGEncoder.encode(image, quality: 95, exif: exif)
    }

    /// Mean (R, B) of a decoded RGB raster's rows `rows` over all columns.
    static func redBlue(_ image: Raster<UInt8>, rows: Range<Int>) -> (red: Int, blue: Int) {
        var r = 0, b = 0
        for y in rows { for x in 0..<image.width { r += Int(image.storage[3 * (y * image.width + x)]); b += Int(image.storage[3 * (y * image.width + x) + 2]) } }
        let n = rows.count * image.width
        return (r / n, b / n)
    }

    /// Orientation 6 (a phone held upright): the thumbnail is turned 90° clockwise and untagged, so the stored
    /// left half (red) is on top.
    @Test func aThumbnailIsTurnedAsTheEXIFOrientationSays() throws {
        let original = try Self.halves(orientation: 6)
        let thumbnail = try StudioMedia.jpeg(original, maxSide: 16)
        #expect((try? ExifReader.read(jpeg: thumbnail))?.orientation ?? 1 == 1)
        let decoded = try JPEGDecoder.decode(thumbnail)
        #expect(decoded.width == 8 && decoded.height == 16)
        let top = Self.redBlue(decoded, rows: 0..<6), bottom = Self.redBlue(decoded, rows: 10..<16)
        #expect(top.red > 200 && top.blue < 50, "top: \(top)")
        #expect(bottom.blue > 200 && bottom.red < 50, "bottom: \(bottom)")
        #expect(StudioMedia.orientation(of: original) == 6)
    }

    /// Orientation 2 (the front camera's mirror): left and right trade places; a JPEG already small enough is served
    /// as it is, its tag kept for the browser to apply.
    @Test func aMirroredPhotoIsShownMirrored() throws {
        let original = try Self.halves(orientation: 2)
        let decoded = try JPEGDecoder.decode(try StudioMedia.jpeg(original, maxSide: 32))
        #expect(decoded.width == 32 && decoded.height == 16)
        var left = 0, right = 0
        for y in 0..<16 { left += Int(decoded.storage[3 * (y * 32 + 2)]); right += Int(decoded.storage[3 * (y * 32 + 29)]) }
        #expect(left / 16 < 50 && right / 16 > 200, "red is on the right once mirrored")
        #expect(try StudioMedia.jpeg(original, maxSide: 64) == original)
    }
}
