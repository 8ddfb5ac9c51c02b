import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct FileKindTests {
    @Test func recognisesEveryKindByStructure() throws {
        let image = TestImages.colourful(width: 64, height: 48)
        var options = HEIFEncodingOptions()
        options.tileSize = 64
        var hdr = Raster<Float>(width: 8, height: 2, channels: 3)
        hdr.storage[0] = 1
        #expect(FileKind.of(try JPEGEncoder.encode(image)) == .jpeg)
        #expect(FileKind.of(try PNGCodec.encode(image)) == .png)
        #expect(FileKind.of(try TIFFCodec.encode(image)) == .tiff)
        #expect(FileKind.of(try TIFF16Writer.encode(Raster<UInt16>(width: 4, height: 4, channels: 3))) == .tiff)
        #expect(FileKind.of(try DNGFixtures.dng(DNGFixtures.raw(width: 64, height: 48))) == .dng)
        #expect(FileKind.of(try HEIFEncoder.encode(image, options: options)) == .heif)
        #expect(FileKind.of(try RadianceHDR.encode(hdr)) == .radianceHDR)
    }

    @Test func cameraRawsAndNonImages() {
        var cr3 = Data([0, 0, 0, 24]) + Data("ftypcrx ".utf8)
        cr3.append(Data(count: 12))
        #expect(FileKind.of(cr3) == .cameraRaw)
        var mp4 = Data([0, 0, 0, 16]) + Data("ftypisom".utf8)
        mp4.append(Data("mp41".utf8))
        #expect(FileKind.of(mp4) == .movie, "an MPEG-4 movie, not an image")
        #expect(FileKind.of(Data([0, 0, 0, 16]) + Data("ftypXXXX".utf8) + Data("XXXX".utf8)) == nil, "an unknown brand")
        #expect(FileKind.of(Data("FUJIFILMCCD-RAW 0201".utf8)) == .cameraRaw)
        // A TIFF whose IFD0 is a CFA mosaic with a Make: a maker raw, not a plain TIFF.
        var t = TIFFBuilder(littleEndian: true)
        t.add(262, type: 3, t.u16(32803))
        t.add(271, type: 2, Array("Canon\0".utf8))
        #expect(FileKind.of(t.data) == .cameraRaw)
        #expect(FileKind.of(Data()) == nil)
        #expect(FileKind.of(Data([0xFF, 0xD8])) == nil)              // SOI alone is not a JPEG
        #expect(FileKind.of(Data("#?RADIANCE\n".utf8)) == .radianceHDR)
        #expect(FileKind.of(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == nil)   // no IHDR
    }
}
