import CaptureCore
import Foundation
@testable import MediaFormats
import OpenCaptureTestSupport
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
    /// A PNG carrying `profile` in an iCCP chunk.
    static func png(withProfile profile: Data) throws -> Data {
        let png = try PNGCodec.encode(Raster<UInt8>(width: 8, height: 6, channels: 3, repeating: 90))
        return try PNGCodec.inserting(chunk: "iCCP", Data(Array("Display P3".utf8) + [0, 0] + StoredZlib.stream([UInt8](profile))), into: png)
    }

    @Test func readsTheICCProfileAndTheCodingPrimaries() throws {
        let profile = ICCProfile.data(for: .displayP3)
        let png = try Self.png(withProfile: profile)
        #expect(try PNGHeader.iccProfile(in: png) == profile)
        #expect(try PNGHeader.iccProfile(in: PNGCodec.encode(Raster<UInt8>(width: 2, height: 2, channels: 3, repeating: 1))) == nil)
        // A name with no end, or a stream that does not inflate, is damage.
        let plain = try PNGCodec.encode(Raster<UInt8>(width: 2, height: 2, channels: 3, repeating: 1))
        #expect(throws: MediaFormatError.self) { try PNGHeader.iccProfile(in: PNGCodec.inserting(chunk: "iCCP", Data(repeating: 65, count: 90), into: plain)) }
        #expect(throws: MediaFormatError.self) { try PNGHeader.iccProfile(in: PNGCodec.inserting(chunk: "iCCP", Data([65, 0, 0, 1, 2, 3]), into: plain)) }
        // cICP: primaries, transfer, matrix, full range.
        #expect(try PNGHeader.codingPrimaries(in: PNGCodec.inserting(chunk: "cICP", Data([12, 13, 0, 1]), into: plain)) == 12)
        #expect(try PNGHeader.codingPrimaries(in: plain) == nil)
    }
}
