import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

/// `HEIFStructure` reads the real primary size, the thumbnail item (not a grid tile), EXIF, XMP
/// and ICC from the boxes, and calls truncated files truncated.
@Suite struct HEIFStructureParsingTests {
    static func heic(width: Int = 700, height: Int = 500, orientation: Int = 1, colorSpace: ColorSpace = .displayP3) throws -> Data {
        var options = HEIFEncodingOptions()
        var exif = ExifMetadata()
        exif.make = "Apple"
        exif.model = "iPhone 15 Pro"
        exif.iso = 125
        options.exif = exif
        options.colorSpace = colorSpace
        options.orientation = orientation
        options.xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
        return try HEIFEncoder.encode(TestImages.colourful(width: width, height: height), options: options)
    }

    @Test func readsPrimaryThumbnailExifXMPAndICC() throws {
        let s = try HEIFStructure.parse(try Self.heic())
        #expect(s.majorBrand == "heic")
        #expect(s.compatibleBrands.contains("mif1"))
        #expect(s.primary.type == "grid")
        #expect((s.width, s.height) == (700, 500))
        #expect(s.thumbnail?.type == "hvc1")
        #expect(s.thumbnailSize == Size(width: 320, height: 228))   // not a 512×512 tile
        #expect(try ExifReader.read(jpeg: try #require(s.exif)).model == "iPhone 15 Pro")
        #expect(String(decoding: try #require(s.xmp), as: UTF8.self).contains("xmpmeta"))
        #expect(ICCProfile.description(of: try #require(s.iccProfile)) == "Display P3")
        #expect(s.colorPrimaries == 12)
        let tiles = s.items.filter { $0.type == "hvc1" && $0.hidden }
        #expect(tiles.count == 2 && tiles.allSatisfy { $0.width == 512 && $0.height == 512 })
    }

    @Test func rotationSwapsTheDisplayedSize() throws {
        let s = try HEIFStructure.parse(try Self.heic(width: 300, height: 200, orientation: 6))
        #expect(s.primary.rotation % 2 == 1)
        #expect((s.width, s.height) == (200, 300))
    }

    @Test func agreesWithLibheif() throws {
        let data = try Self.heic(width: 600, height: 400, colorSpace: .sRGB)
        let s = try HEIFStructure.parse(data)
        let info = try HEIFDecoder.info(data)
        #expect((s.width, s.height) == (info.width, info.height))
        #expect(s.thumbnailSize == info.thumbnailSize)
        #expect(s.items.count == info.itemCount)
        #expect(ICCProfile.description(of: try #require(s.iccProfile)) == info.colorProfileDescription)
    }

    @Test func truncatedFilesAreTruncatedEverywhere() throws {
        let data = try Self.heic(width: 300, height: 200)
        for cut in [data.count - 1, data.count - 100, data.count / 2] {
            #expect(throws: MediaFormatError.truncated) { try HEIFStructure.parse(data.prefix(cut)) }
            #expect(throws: MediaFormatError.truncated) { try HEIFDecoder.info(data.prefix(cut)) }
            #expect(throws: MediaFormatError.truncated) { try HEIFDecoder.decode(data.prefix(cut)) }
        }
        #expect(throws: MediaFormatError.truncated) { try HEIFStructure.parse(data.prefix(10)) }
        #expect(throws: MediaFormatError.invalidImage("empty data")) { try HEIFStructure.parse(Data()) }
    }

    /// Bytes appended after the last box (a tool that added a trailer, a copy that ran on) are passed over, as libheif
    /// passes them: the same structure and pixels.
    @Test func bytesAfterTheLastBoxArePassedOver() throws {
        let data = try Self.heic(width: 300, height: 200)
        let pixels = try HEIFDecoder.decode(data).storage
        for tail in [Data([1]), Data(repeating: 0xFF, count: 8), Data((0..<100).map { UInt8($0 * 7 & 255) })] {
            let s = try HEIFStructure.parse(data + tail)
            #expect((s.width, s.height) == (300, 200))
            #expect(try HEIFDecoder.decode(data + tail).storage == pixels)
        }
    }

    /// A hand-built file whose primary `ispe` is 2^32−1 square: parsed without overflow,
    /// refused before decoding.
    @Test func hugeIspeIsReportedAndRefusedForDecoding() throws {
        var w = BMFFWriter()
        w.box("ftyp") { $0.fourCC("heic"); $0.u32(0); $0.fourCC("mif1"); $0.fourCC("heic") }
        w.fullBox("meta") { w in
            w.fullBox("hdlr") { $0.u32(0); $0.fourCC("pict"); $0.u32(0); $0.u32(0); $0.u32(0); $0.cString("") }
            w.fullBox("pitm") { $0.u16(1) }
            w.fullBox("iinf") { w in
                w.u16(1)
                w.fullBox("infe", version: 2) { $0.u16(1); $0.u16(0); $0.fourCC("hvc1"); $0.cString("") }
            }
            w.box("iprp") { w in
                w.box("ipco") { w in w.fullBox("ispe") { $0.u32(0xFFFF_FFFF); $0.u32(0xFFFF_FFFF) } }
                w.fullBox("ipma") { $0.u32(1); $0.u16(1); $0.u8(1); $0.u8(0x81) }
            }
        }
        let s = try HEIFStructure.parse(w.data)
        #expect((s.width, s.height) == (4_294_967_295, 4_294_967_295))
        #expect(throws: MediaFormatError.self) { try HEIFDecoder.decode(w.data) }
    }

    @Test func missingBoxesAreInvalid() throws {
        var w = BMFFWriter()
        w.box("ftyp") { $0.fourCC("heic"); $0.u32(0); $0.fourCC("mif1") }
        #expect(throws: MediaFormatError.invalidImage("no HEIF meta box")) { try HEIFStructure.parse(w.data) }
        w.fullBox("meta") { $0.fullBox("pitm") { $0.u16(1) } }
        #expect(throws: MediaFormatError.invalidImage("HEIF meta box lacks iinf")) { try HEIFStructure.parse(w.data) }
    }
}
