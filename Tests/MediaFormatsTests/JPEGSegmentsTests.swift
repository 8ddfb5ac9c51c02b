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

    /// The image data read without decoding: whole, cut before its end marker, or far too short for the frame its
    /// header claims — at least 2 bits per 8×8 block of a sequential frame: a 65500×65500 4:2:0 frame has
    /// 8188² + 2 × 4094² = 100,565,016 blocks, so 25,141,254 bytes at least. The least a real frame takes (one flat
    /// colour, optimised Huffman tables, 4:4:4 or 4:2:0) passes.
    @Test func imageDataTooShortForItsFrameIsSeenWithoutDecoding() throws {
        let jpeg = try JPEGEncoder.encode(Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 120))
        #expect(JPEGSegments.imageDataProblem(in: jpeg) == nil)
        #expect(JPEGSegments.imageDataProblem(in: jpeg.prefix(jpeg.count - 10)) == .cutShort)
        var lying = [UInt8](jpeg)
        let segments = try JPEGSegments.segments(in: jpeg)
        let frame = try #require(segments.first { $0.marker == 0xC0 }).payload.lowerBound
        lying.replaceSubrange(frame + 1...frame + 4, with: [0xFF, 0xDC, 0xFF, 0xDC])
        let scanData = try #require(JPEGSegments.endOfImage(in: jpeg)) - segments.last!.payload.upperBound
        #expect(JPEGSegments.imageDataProblem(in: Data(lying))
                == .tooShortForFrame(width: 65500, height: 65500, bytes: scanData, minimumBytes: 25_141_254))
        for subsampling in [ChromaSubsampling.yuv444, .yuv420] {
            let flat = try JPEGEncoder.encode(Raster<UInt8>(width: 2048, height: 1536, channels: 3, repeating: 128), subsampling: subsampling,
                                              optimizeCoding: true)
            #expect(JPEGSegments.imageDataProblem(in: flat) == nil, "\(subsampling): \(flat.count) bytes")
        }
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
