import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct JPEGSegmentsTests {
    @Test func walksCameraLayoutAndFindsExifAndICC() throws {
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        let icc = ICCProfile.data(for: .displayP3)
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 32, height: 16), exif: exif, iccProfile: icc)
        let segments = try JPEGSegments.segments(in: jpeg)
        #expect(segments.first?.marker == 0xE1 && segments.first?.offset == 2)
        #expect(segments.last?.marker == 0xDA)
        #expect(segments.contains { $0.marker == 0xC0 } && segments.contains { $0.marker == 0xE2 })
        #expect(try JPEGSegments.iccProfile(in: jpeg) == icc)
        #expect(try ExifReader.read(jpeg: try #require(try JPEGSegments.exifTIFF(in: jpeg))).make == "OpenCapture")
        #expect(try !JPEGSegments.hasMPF(in: jpeg))
    }

    @Test func damagedSegmentsThrowTypedErrors() throws {
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 16, height: 16))
        #expect(throws: MediaFormatError.truncated) { try JPEGSegments.segments(in: jpeg.prefix(30)) }
        #expect(throws: MediaFormatError.invalidImage("not a JPEG (no SOI marker)")) { try JPEGSegments.segments(in: Data("GIF89a".utf8)) }
        #expect(throws: MediaFormatError.self) { try JPEGSegments.segments(in: Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01])) }
        #expect(throws: MediaFormatError.self) { try JPEGSegments.segments(in: Data([0xFF, 0xD8, 0x00, 0xE1, 0x00, 0x04, 0, 0])) }
        // The EXIF of a file truncated after its APP1 is still found.
        var exif = ExifMetadata()
        exif.model = "Cut"
        let withExif = try JPEGEncoder.encode(TestImages.colourful(width: 16, height: 16), exif: exif)
        let app1 = try JPEGSegments.segments(in: withExif)[0]
        #expect(try ExifReader.read(jpeg: withExif.prefix(app1.payload.upperBound + 10)).model == "Cut")
    }
}
