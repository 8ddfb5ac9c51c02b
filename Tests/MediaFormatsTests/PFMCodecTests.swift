import CaptureCore
import Foundation
import MediaFormats
import Testing

@Suite struct PFMCodecTests {
    @Test func roundTripsMiddleburyUnknownsAndRowOrder() throws {
        var image = Raster<Float>(width: 3, height: 2)
        image.storage = [1.5, .infinity, -2, 0, .nan, 211.25]
        let data = try PFMCodec.encode(image)
        let header = "Pf\n3 2\n-1.0\n"
        #expect(data.prefix(header.utf8.count) == Data(header.utf8))
        #expect(data.count == header.utf8.count + 6 * 4)
        // Bottom row first, little-endian: the first stored float is the bottom-left pixel (0).
        let first = data.dropFirst(header.utf8.count).prefix(4)
        #expect(Array(first) == [0, 0, 0, 0])
        let last = Array(data.suffix(4))
        #expect(last == Array(withUnsafeBytes(of: Float(-2).bitPattern.littleEndian) { Array($0) }))
        let back = try PFMCodec.decode(data)
        #expect(back.width == 3 && back.height == 2 && back.channels == 1)
        #expect(back[1, 0] == .infinity && back[1, 1].isNaN && back[0, 0] == 1.5 && back[2, 1] == 211.25)
    }

    @Test func readsBigEndianAndColourFiles() throws {
        var data = Data("PF\n1 1\n1.0\n".utf8)
        for v: Float in [1, 2, 3] { withUnsafeBytes(of: v.bitPattern.bigEndian) { data.append(contentsOf: $0) } }
        let image = try PFMCodec.decode(data)
        #expect(image.channels == 3 && image.storage == [1, 2, 3])
        #expect(try PFMCodec.decode(PFMCodec.encode(image)).storage == [1, 2, 3])
    }

    @Test func badInputGivesTypedErrors() throws {
        let good = try PFMCodec.encode(Raster<Float>(width: 4, height: 4, repeating: 1))
        #expect(throws: MediaFormatError.truncated) { try PFMCodec.decode(good.dropLast(3)) }
        #expect(throws: MediaFormatError.self) { try PFMCodec.decode(Data("P6\n1 1\n255\n".utf8)) }
        #expect(throws: MediaFormatError.self) { try PFMCodec.decode(Data("Pf\n1 1\n0\n    ".utf8)) }
        #expect(throws: MediaFormatError.self) { try PFMCodec.decode(Data("Pf\n-3 1\n-1\n    ".utf8)) }
        #expect(throws: MediaFormatError.self) { try PFMCodec.decode(Data("Pf\n99999999 99999999\n-1\n".utf8)) }
        #expect(throws: MediaFormatError.self) { try PFMCodec.decode(Data()) }
        #expect(throws: MediaFormatError.self) { try PFMCodec.encode(Raster<Float>(width: 2, height: 2, channels: 2)) }
    }
}
