import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

/// `JPEGHeader.frame(in:)`: the frame header read from the file's bytes agrees with libjpeg's reading, and describes
/// the JPEGs libjpeg-turbo 2.1 cannot open.
@Suite struct JPEGHeaderTests {
    /// An 8-bit sequential JPEG relabelled as 12-bit extended (SOF1): libjpeg-turbo 2.1 refuses it at the header.
    static func twelveBit(_ jpeg: Data) throws -> Data {
        var bytes = [UInt8](jpeg)
        let frame = try #require(try JPEGSegments.segments(in: bytes).first { $0.marker == 0xC0 })
        bytes[frame.offset + 1] = 0xC1
        bytes[frame.payload.lowerBound] = 12
        return Data(bytes)
    }

    @Test(arguments: [(ChromaSubsampling.yuv420, false), (.yuv422, false), (.yuv444, true)])
    func theFrameHeaderAgreesWithLibjpeg(subsampling: ChromaSubsampling, progressive: Bool) throws {
        let image = Raster<UInt8>(width: 50, height: 34, channels: 3, repeating: 100)
        var jpeg = try JPEGEncoder.encode(image, subsampling: subsampling)
        if progressive {
            // Relabel as progressive only for the header walk (libjpeg reads the real file below).
            let libjpeg = try JPEGDecoder.header(of: jpeg)
            #expect(try JPEGHeader.frame(in: jpeg) == libjpeg)
            var bytes = [UInt8](jpeg)
            let frame = try #require(try JPEGSegments.segments(in: bytes).first { $0.marker == 0xC0 })
            bytes[frame.offset + 1] = 0xC2
            jpeg = Data(bytes)
            #expect(try JPEGHeader.frame(in: jpeg).isProgressive)
        } else {
            #expect(try JPEGHeader.frame(in: jpeg) == JPEGDecoder.header(of: jpeg))
        }
    }

    @Test func aTwelveBitJPEGIsDescribedThoughLibjpegRefusesIt() throws {
        let jpeg = try Self.twelveBit(try JPEGEncoder.encode(Raster<UInt8>(width: 40, height: 30, channels: 3, repeating: 60)))
        #expect(throws: MediaFormatError.self) { try JPEGDecoder.header(of: jpeg) }
        let header = try JPEGHeader.frame(in: jpeg)
        #expect(header.size == Size(width: 40, height: 30) && header.bitsPerSample == 12 && !header.isLossless)
        #expect(header.components == 3 && header.chromaSubsampling == .yuv420)
    }

    @Test func aLosslessJPEGIsDescribed() throws {
        let samples = (0..<(16 * 6)).map { UInt16($0 * 97 % 4096) }
        let jpeg = Data(samples.withUnsafeBufferPointer { LosslessJPEGEncoder.encode($0.baseAddress!, rowStride: 16, width: 16, height: 6) })
        let header = try JPEGHeader.frame(in: jpeg)
        // Two interleaved components of half the width, 16-bit, as in a DNG tile.
        #expect(header.isLossless && header.bitsPerSample == 16 && header.components == 2)
        #expect(header.size == Size(width: 8, height: 6))
    }

    @Test func impossibleFramesAreErrors() throws {
        let jpeg = try JPEGEncoder.encode(Raster<UInt8>(width: 40, height: 30, channels: 3, repeating: 60))
        let frame = try #require(try JPEGSegments.segments(in: jpeg).first { $0.marker == 0xC0 })
        // Precision 7, 255, 0; a sampling factor of 5 or 0; no width.
        let damage: [[(offset: Int, value: UInt8)]] = [[(0, 7)], [(0, 255)], [(0, 0)], [(7, 0x51)], [(7, 0x00)], [(3, 0), (4, 0)]]
        for changes in damage {
            var bytes = [UInt8](jpeg)
            for change in changes { bytes[frame.payload.lowerBound + change.offset] = change.value }
            #expect(throws: MediaFormatError.self, "\(changes)") { try JPEGHeader.frame(in: Data(bytes)) }
        }
        // Arithmetic coding (SOF9) is described as such.
        var arithmetic = [UInt8](jpeg)
        arithmetic[frame.offset + 1] = 0xC9
        #expect(try JPEGHeader.frame(in: Data(arithmetic)).isArithmetic)
    }

    @Test func noFrameHeaderIsAnError() {
        #expect(throws: MediaFormatError.self) { try JPEGHeader.frame(in: Data([0xFF, 0xD8, 0xFF, 0xD9])) }
        #expect(throws: MediaFormatError.self) { try JPEGHeader.frame(in: Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x05, 8, 0, 1])) }
        #expect(throws: MediaFormatError.self) { try JPEGHeader.frame(in: Data("not a JPEG".utf8)) }
    }
}
