import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct JPEGStripesTests {
    /// A textured picture (a gradient with per-pixel noise), so the entropy-coded data holds every byte value.
    static func textured(width: Int, height: Int, channels: Int = 3) -> Raster<UInt8> {
        var image = TestImages.colourful(width: width, height: height, channels: channels)
        var random = RandomSource(seed: 7)
        for i in image.storage.indices {
            image.storage[i] = UInt8(clamping: Int(image.storage[i]) + Int(random.next() % 81) - 40)
        }
        return image
    }

    /// The restart markers in the scan of `jpeg`, in order (their numbers 0–7).
    static func restartNumbers(_ jpeg: Data) throws -> [Int] {
        let bytes = [UInt8](jpeg)
        guard let scan = try JPEGSegments.segments(in: bytes).last else { return [] }
        var numbers: [Int] = [], i = scan.payload.upperBound
        while i + 1 < bytes.count {
            if bytes[i] == 0xFF, bytes[i + 1] & 0xF8 == 0xD0 { numbers.append(Int(bytes[i + 1] & 7)) }
            i += bytes[i] == 0xFF ? 2 : 1
        }
        return numbers
    }

    @Test func aLargePhotoEncodedInStripesDecodesToTheSamePixelsAsOneEncoder() throws {
        // 2.1 MP (striped on two or more cores), height not a whole number of 16-row MCU rows.
        let image = Self.textured(width: 2048, height: 1044)
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        let striped = try JPEGEncoder.encode(image, quality: 90, exif: exif)
        let single = try JPEGEncoder.encodeRows(of: image, rows: 0..<1044, quality: 90, subsampling: .yuv420, optimizeCoding: false,
                                                jfif: false, restartRows: 0, app1: ExifWriter.app1Payload(for: exif), icc: Data())
        #expect(try JPEGDecoder.decode(striped).storage == JPEGDecoder.decode(single).storage)
        #expect(try JPEGDecoder.size(of: striped) == Size(width: 2048, height: 1044))
        #expect(try JPEGSegments.exifTIFF(in: striped) != nil)
        // A restart after every MCU row but the last, numbered on modulo 8 across the join (on one core too).
        let mcuRows = (1044 + 15) / 16
        #expect(try Self.restartNumbers(striped) == (0..<(mcuRows - 1)).map { $0 & 7 })
        #expect(try JPEGSegments.segments(in: striped).contains { $0.marker == 0xDD })
    }

    @Test(arguments: [(ChromaSubsampling.yuv420, 3), (.yuv444, 3), (.yuv422, 3), (.yuv420, 4), (.yuv422, 1)])
    func threeStripesJoinIntoOneScan(subsampling: ChromaSubsampling, channels: Int) throws {
        let width = 200, height = 301
        let image = Self.textured(width: width, height: height, channels: channels)
        let mcuHeight = channels != 1 && subsampling == .yuv420 ? 16 : 8
        let mcuRows = (height + mcuHeight - 1) / mcuHeight
        let stripes = (0..<3).map { JPEGStripes.rows(stripe: $0, of: 3, mcuRows: mcuRows) }
        let parts = try stripes.enumerated().map { k, rows in
            try JPEGEncoder.encodeRows(of: image, rows: (rows.lowerBound * mcuHeight)..<min(height, rows.upperBound * mcuHeight),
                                       quality: 85, subsampling: subsampling, optimizeCoding: false, jfif: true, restartRows: 1,
                                       app1: Data(), icc: Data())
        }
        let joined = try JPEGStripes.join(parts, height: height, firstRows: stripes.map(\.lowerBound))
        let single = try JPEGEncoder.encodeRows(of: image, rows: 0..<height, quality: 85, subsampling: subsampling, optimizeCoding: false,
                                                jfif: true, restartRows: 1, app1: Data(), icc: Data())
        // Exactly the bytes one encoder with the same restart interval writes.
        #expect(joined == single)
        #expect(try Self.restartNumbers(joined) == (0..<(mcuRows - 1)).map { $0 & 7 })
    }

    @Test func aStripeThatIsNotABaselineJPEGIsRefused() throws {
        let image = Self.textured(width: 64, height: 64)
        let part = try JPEGEncoder.encodeRows(of: image, rows: 0..<32, quality: 85, subsampling: .yuv420, optimizeCoding: false,
                                              jfif: true, restartRows: 1, app1: Data(), icc: Data())
        #expect(throws: MediaFormatError.self) { try JPEGStripes.join([part, part.dropLast(2)], height: 64, firstRows: [0, 2]) }
        #expect(throws: MediaFormatError.self) { try JPEGStripes.join([Data([0xFF, 0xD8])], height: 64, firstRows: [0]) }
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolValidatesAStripedPhoto() throws {
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        let jpeg = try JPEGEncoder.encode(Self.textured(width: 2048, height: 1044), exif: exif)
        let tags = try ExifTool.tags(of: jpeg, numeric: true)
        #expect(tags["ExifTool:Validate"] == "0 0 0" || tags["ExifTool:Validate"] == "OK", "\(tags["ExifTool:Validate"] ?? "")")
        #expect(tags["File:ImageHeight"] == "1044")
    }
}
