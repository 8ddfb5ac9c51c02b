import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct PNGCodecTests {
    @Test func rgbRoundTripIsLossless() throws {
        let image = TestImages.colourful(width: 33, height: 17)
        let png = try PNGCodec.encode(image)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try PNGCodec.decode(png) == image)
    }

    @Test func exifTravelsInAnEXIfChunkBeforeTheImageData() throws {
        let image = TestImages.colourful(width: 33, height: 17)
        var exif = ExifMetadata()
        exif.orientation = 6
        exif.make = "OpenCapture"
        let png = try PNGCodec.encode(image, exif: exif)
        let types = try PNGHeader.chunks(in: png).map(\.type)
        #expect(types.first == "IHDR" && types.dropFirst().first == "eXIf")
        #expect(try PNGCodec.decode(png) == image)
        let chunk = try #require(PNGHeader.chunks(in: png).first { $0.type == "eXIf" })
        // The chunk's CRC-32 (over type and body, big-endian after the body), against a bitwise reference (libpng
        // only warns about a bad CRC on an ancillary chunk, and drops it).
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in png[(chunk.body.lowerBound - 4)..<chunk.body.upperBound] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        let stored = png[chunk.body.upperBound..<(chunk.body.upperBound + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(stored == ~crc)
        let read = try ExifReader.read(jpeg: png.subdata(in: chunk.body))
        #expect(read.orientation == 6 && read.make == "OpenCapture")
        #expect(try PNGCodec.encode(image, exif: nil) == PNGCodec.encode(image))
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolReadsTheOrientation() throws {
        var exif = ExifMetadata()
        exif.orientation = 8
        let png = try PNGCodec.encode(TestImages.colourful(width: 16, height: 8), exif: exif)
        let result = try ExternalTool.exiftool.run(["-n", "-s", "-s", "-s", "-Orientation", "-Warning"], file: png, fileExtension: "png")
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "8", "\(result.output)")
    }

    @Test func rgbaDropsAlphaKeepingColour() throws {
        let rgba = TestImages.colourful(width: 12, height: 7, channels: 4)
        let decoded = try PNGCodec.decode(try PNGCodec.encode(rgba))
        #expect(decoded.channels == 3)
        for (x, y) in [(0, 0), (11, 6), (5, 3)] {
            for c in 0..<3 { #expect(decoded[x, y, c] == rgba[x, y, c]) }
        }
    }

    @Test func grayExpandsToRGB() throws {
        let gray = TestImages.colourful(width: 9, height: 5, channels: 1)
        let decoded = try PNGCodec.decode(try PNGCodec.encode(gray))
        #expect(decoded.channels == 3)
        #expect(decoded[8, 4, 0] == gray[8, 4, 0] && decoded[8, 4, 2] == gray[8, 4, 0])
    }

    @Test func sixteenBitReducesToEight() throws {
        // 2×1 RGB16: (0x1234, 0x8000, 0xFFFF), (0x0000, 0x00FF, 0xFE01).
        let png = RawPNG.make(width: 2, height: 1, bitDepth: 16, colorType: 2,
                              rows: [[0x12, 0x34, 0x80, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0xFE, 0x01]])
        let image = try PNGCodec.decode(png)
        #expect(image.size == Size(width: 2, height: 1) && image.channels == 3)
        #expect(image.storage == [18, 128, 255, 0, 1, 253])   // round(v × 255 / 65535), no gamma change
    }

    @Test func paletteExpandsToRGB() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255]
        let png = RawPNG.make(width: 3, height: 2, bitDepth: 8, colorType: 3,
                              rows: [[0, 1, 2], [2, 1, 0]], palette: palette)
        let image = try PNGCodec.decode(png)
        #expect(image.storage == [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0])
    }

    @Test func badDataThrows() throws {
        let png = try PNGCodec.encode(TestImages.colourful(width: 40, height: 40))
        // Cutting anywhere before the end of the image data (IEND is 12 bytes) must fail.
        for cut in [png.count - 13, png.count / 2, 60, 10, 4] {
            #expect(throws: MediaFormatError.self) { _ = try PNGCodec.decode(png.prefix(cut)) }
        }
        var corrupt = png
        corrupt[png.count / 2] ^= 0x55
        #expect(throws: MediaFormatError.self) { _ = try PNGCodec.decode(corrupt) }
        #expect(throws: MediaFormatError.self) { _ = try PNGCodec.decode(Data("definitely not a png".utf8)) }
        #expect(throws: MediaFormatError.self) { _ = try PNGCodec.encode(Raster<UInt8>(width: 3, height: 3, channels: 2)) }
    }

    static let kodak = SharedData.file("data/demosaic/kodak24/kodim01.png")

    @Test(.enabled(if: kodak != nil, "Kodak data set not present in ../shared"))
    func decodesKodakImage() throws {
        let image = try PNGCodec.decode(try Data(contentsOf: try #require(Self.kodak)))
        #expect(image.channels == 3 && image.width > 0 && image.height > 0)
        #expect(Set(image.storage).count > 200)   // a real photo, not a flat fill
    }
}
