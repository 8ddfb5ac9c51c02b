import CaptureCore
import Foundation
import MediaFormats
import Testing


@Suite struct PNGHeaderTests {
    @Test func readsIHDRAndEveryChunk() throws {
        let png = try PNGCodec.encode(Raster<UInt8>(width: 30, height: 20, channels: 3, repeating: 7))
        let header = try PNGHeader(png)
        #expect(header.width == 30 && header.height == 20 && header.bitDepth == 8 && header.colorType == 2)
        let chunks = try PNGHeader.chunks(in: png)
        #expect(chunks.first?.type == "IHDR" && chunks.first?.body == 16..<29)
        #expect(chunks.last?.type == "IEND" && chunks.last?.body.upperBound == png.count - 4)
        #expect(chunks.contains { $0.type == "IDAT" })
    }

    @Test func cutOrForeignDataIsATypedError() throws {
        let png = try PNGCodec.encode(Raster<UInt8>(width: 30, height: 20, channels: 3, repeating: 7))
        #expect(throws: MediaFormatError.truncated) { try PNGHeader(png.prefix(20)) }
        #expect(throws: MediaFormatError.truncated) { try PNGHeader.chunks(in: png.dropLast(1)) }
        #expect(throws: MediaFormatError.self) { try PNGHeader(Data(repeating: 0x42, count: 64)) }
        // A chunk length of 4 GB is checked against the file, not trusted.
        var huge = png
        huge.replaceSubrange(33..<37, with: [0xFF, 0xFF, 0xFF, 0xF0])
        #expect(throws: MediaFormatError.truncated) { try PNGHeader.chunks(in: huge) }
    }
}
