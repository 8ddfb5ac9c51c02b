import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct HEIFStructureTests {
    /// Where display pixel (x, y) comes from in a `width`×`height` image stored with EXIF `orientation`.
    static func source(_ x: Int, _ y: Int, _ width: Int, _ height: Int, _ orientation: Int) -> (Int, Int) {
        switch orientation {
        case 2: return (width - 1 - x, y)
        case 3: return (width - 1 - x, height - 1 - y)
        case 4: return (x, height - 1 - y)
        case 5: return (y, x)
        case 6: return (y, height - 1 - x)
        case 7: return (width - 1 - y, height - 1 - x)
        case 8: return (width - 1 - y, x)
        default: return (x, y)
        }
    }

    @Test(arguments: 1...8)
    func orientationIsAppliedByLibheif(_ orientation: Int) throws {
        let (w, h) = (96, 64)
        let image = TestImages.colourful(width: w, height: h)
        var options = HEIFEncodingOptions()
        options.orientation = orientation
        options.exif = HEIFCodecTests.exif()
        let heic = try HEIFEncoder.encode(image, options: options)
        let decoded = try HEIFDecoder.decode(heic)
        let turned = orientation >= 5
        #expect(decoded.size == (turned ? Size(width: h, height: w) : Size(width: w, height: h)))
        var expected = Raster<UInt8>(width: decoded.width, height: decoded.height, channels: 3)
        for y in 0..<decoded.height {
            for x in 0..<decoded.width {
                let (sx, sy) = Self.source(x, y, w, h, orientation)
                for c in 0..<3 { expected[x, y, c] = image[sx, sy, c] }
            }
        }
        #expect(TestImages.psnr(expected, decoded) > 35, "orientation \(orientation)")
        // Like an iPhone, EXIF keeps the same orientation as irot/imir.
        let tiff = try #require(try Self.exifPayload(heic))
        #expect(try ExifReader.read(jpeg: tiff).orientation == orientation)   // also takes raw TIFF
    }

    /// The TIFF bytes of the Exif item (after its 4-byte header offset), found by `HEIFStructure`.
    static func exifPayload(_ heic: Data) throws -> Data? {
        try HEIFStructure.parse(heic).exif
    }

    @Test func tilesAreHiddenAndShareOneConfiguration() throws {
        var options = HEIFEncodingOptions()
        options.tileSize = 128
        options.thumbnailMaxDimension = nil
        let heic = try HEIFEncoder.encode(TestImages.colourful(width: 300, height: 200), options: options)
        let reader = BMFFReader(heic)
        let (primary, items) = try reader.items()
        #expect(items.first { $0.id == primary }?.type == "grid")
        let tiles = items.filter { $0.type == "hvc1" }
        #expect(tiles.count == 3 * 2 && tiles.allSatisfy(\.hidden))
        let properties = try reader.propertyTypes()
        #expect(properties.filter { $0 == "hvcC" }.count == 1, "\(properties)")
        #expect(try reader.boxes().map(\.type) == ["ftyp", "meta", "mdat"])
        #expect(try HEIFDecoder.decode(heic).size == Size(width: 300, height: 200))
    }

    @Test func boxWriterPatchesSizes() throws {
        var w = BMFFWriter()
        w.box("abcd") { w in
            w.fullBox("efgh", version: 1, flags: 3) { w in
                w.u16(7)
                w.cString("hi")
            }
        }
        #expect(w.bytes == [0, 0, 0, 25] + Array("abcd".utf8) + [0, 0, 0, 17] + Array("efgh".utf8) + [1, 0, 0, 3, 0, 7] + Array("hi".utf8) + [0])
        let reader = BMFFReader(w.data)
        let outer = try reader.boxes()
        #expect(outer.map(\.type) == ["abcd"])
        #expect(try reader.boxes(in: outer[0].body).map(\.type) == ["efgh"])
        #expect(throws: MediaFormatError.self) { try BMFFReader(Data([0, 0, 0, 99] + Array("abcd".utf8))).boxes() }
    }

    @Test func badOptionsThrow() {
        let image = TestImages.colourful(width: 32, height: 32)
        var options = HEIFEncodingOptions()
        options.quality = 1.5
        #expect(throws: MediaFormatError.self) { _ = try HEIFEncoder.encode(image, options: options) }
        options = HEIFEncodingOptions()
        options.preset = "warp-speed"
        #expect(throws: MediaFormatError.self) { _ = try HEIFEncoder.encode(image, options: options) }
        options = HEIFEncodingOptions()
        options.tileSize = 100
        #expect(throws: MediaFormatError.self) { _ = try HEIFEncoder.encode(image, options: options) }
        options = HEIFEncodingOptions()
        options.orientation = 9
        #expect(throws: MediaFormatError.self) { _ = try HEIFEncoder.encode(image, options: options) }
        #expect(throws: MediaFormatError.self) { _ = try HEIFEncoder.encode(Raster<UInt8>(width: 0, height: 4, channels: 3), options: HEIFEncodingOptions()) }
        #expect(throws: MediaFormatError.self) { _ = try HEIFEncoder.encode(Raster<UInt8>(width: 4, height: 4, channels: 2), options: HEIFEncodingOptions()) }
    }
}
