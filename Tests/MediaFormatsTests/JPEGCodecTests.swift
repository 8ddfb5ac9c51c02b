import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct JPEGCodecTests {
    @Test(arguments: ChromaSubsampling.allCases)
    func theHeaderSaysHowTheImageIsCoded(subsampling: ChromaSubsampling) throws {
        let image = Raster<UInt8>(width: 40, height: 24, channels: 3, repeating: 120)
        let header = try JPEGDecoder.header(of: try JPEGEncoder.encode(image, subsampling: subsampling))
        #expect(header.size == Size(width: 40, height: 24) && !header.isProgressive && header.components == 3 && !header.storesRGB)
        #expect(header.chromaSubsampling == subsampling)
    }

    @Test func roundTripHighQuality444() throws {
        let image = TestImages.colourful(width: 64, height: 48)
        let jpeg = try JPEGEncoder.encode(image, quality: 95, subsampling: .yuv444)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF, 0xE0]))          // SOI + JFIF when no EXIF
        #expect(try JPEGDecoder.size(of: jpeg) == Size(width: 64, height: 48))
        let decoded = try JPEGDecoder.decode(jpeg)
        #expect(decoded.width == 64 && decoded.height == 48 && decoded.channels == 3)
        let psnr = TestImages.psnr(image, decoded)
        #expect(psnr > 35, "PSNR \(psnr) dB")
    }

    @Test(arguments: [ChromaSubsampling.yuv444, .yuv422, .yuv420])
    func oddSizesAndSubsampling(_ subsampling: ChromaSubsampling) throws {
        let image = TestImages.colourful(width: 33, height: 17)
        let decoded = try JPEGDecoder.decode(try JPEGEncoder.encode(image, subsampling: subsampling))
        #expect(decoded.size == Size(width: 33, height: 17))
        #expect(TestImages.psnr(image, decoded) > 28)
    }

    @Test func rgbaIgnoresAlpha() throws {
        let rgba = TestImages.colourful(width: 20, height: 10, channels: 4)
        var rgb = Raster<UInt8>(width: 20, height: 10, channels: 3)
        for y in 0..<10 { for x in 0..<20 { for c in 0..<3 { rgb[x, y, c] = rgba[x, y, c] } } }
        let a = try JPEGEncoder.encode(rgba, quality: 80)
        let b = try JPEGEncoder.encode(rgb, quality: 80)
        #expect(a == b)
    }

    @Test func grayscaleExpandsToRGB() throws {
        let gray = TestImages.colourful(width: 31, height: 9, channels: 1)
        let decoded = try JPEGDecoder.decode(try JPEGEncoder.encode(gray, quality: 95))
        #expect(decoded.channels == 3 && decoded.size == Size(width: 31, height: 9))
        #expect(decoded[5, 5, 0] == decoded[5, 5, 1] && decoded[5, 5, 1] == decoded[5, 5, 2])
        #expect(abs(Int(decoded[30, 8, 0]) - Int(gray[30, 8, 0])) <= 3)
    }

    @Test func qualityChangesSize() throws {
        let image = TestImages.colourful(width: 64, height: 64)
        let low = try JPEGEncoder.encode(image, quality: 20)
        let high = try JPEGEncoder.encode(image, quality: 98)
        let optimized = try JPEGEncoder.encode(image, quality: 98, optimizeCoding: true)
        #expect(low.count < high.count)
        #expect(optimized.count < high.count)
    }

    @Test func badArgumentsThrow() {
        let image = TestImages.colourful(width: 8, height: 8)
        #expect(throws: MediaFormatError.self) { _ = try JPEGEncoder.encode(image, quality: 0) }
        #expect(throws: MediaFormatError.self) { _ = try JPEGEncoder.encode(Raster<UInt8>(width: 0, height: 4, channels: 3)) }
        #expect(throws: MediaFormatError.self) { _ = try JPEGEncoder.encode(Raster<UInt8>(width: 4, height: 4, channels: 2)) }
    }

    @Test func truncatedDataThrowsTruncated() throws {
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 64, height: 64), quality: 90)
        for cut in [jpeg.count - 2, jpeg.count / 2, 700, 300, 20, 3] {
            #expect(throws: MediaFormatError.self) { _ = try JPEGDecoder.decode(jpeg.prefix(cut)) }
        }
        #expect(throws: MediaFormatError.truncated) { _ = try JPEGDecoder.decode(jpeg.prefix(jpeg.count / 2)) }
    }

    @Test func garbageThrows() throws {
        var rng = SystemRandomNumberGenerator()
        for n in [0, 1, 2, 100, 5000] {
            let bytes = Data((0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) })
            #expect(throws: MediaFormatError.self) { _ = try JPEGDecoder.decode(bytes) }
            #expect(throws: MediaFormatError.self) { _ = try JPEGDecoder.size(of: bytes) }
        }
        // A valid SOI followed by garbage reaches libjpeg itself, whose error must not exit().
        var fake = Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x04])
        fake += Data((0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        #expect(throws: MediaFormatError.self) { _ = try JPEGDecoder.decode(fake) }
        // Corrupt the entropy-coded data of a real JPEG.
        var corrupt = try JPEGEncoder.encode(TestImages.colourful(width: 64, height: 64))
        for i in stride(from: corrupt.count - 400, to: corrupt.count - 2, by: 7) { corrupt[i] = 0xFF }
        #expect(throws: MediaFormatError.self) { _ = try JPEGDecoder.decode(corrupt) }
    }

    @Test func extraneousBytesBetweenMarkersAreTolerated() throws {
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 24, height: 16))
        #expect(jpeg[20] == 0xFF && jpeg[21] == 0xDB)             // SOI (2) + JFIF APP0 (18) → DQT
        var padded = jpeg.prefix(20)
        padded += Data([0x12, 0x34, 0x56])
        padded += jpeg.dropFirst(20)
        #expect(try JPEGDecoder.decode(padded) == JPEGDecoder.decode(jpeg))
    }

    @Test func concurrentUseIsIndependent() async throws {
        let image = TestImages.colourful(width: 48, height: 40)
        let reference = try JPEGDecoder.decode(try JPEGEncoder.encode(image, quality: 85))
        let truncated = try JPEGEncoder.encode(image).prefix(300)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<16 {
                group.addTask {
                    if i % 2 == 1 {
                        return (try? JPEGDecoder.decode(truncated)) == nil
                    }
                    return try JPEGDecoder.decode(try JPEGEncoder.encode(image, quality: 85)) == reference
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test func thumbnailMetadataIsStripped() throws {
        let thumb = try JPEGEncoder.encode(TestImages.colourful(width: 16, height: 12), exif: nil) // has JFIF APP0
        let stripped = try JPEGSegments.strippingMetadata(thumb)
        #expect(stripped.count == thumb.count - 18)
        #expect(stripped.starts(with: [0xFF, 0xD8, 0xFF, 0xDB]))
        #expect(try JPEGDecoder.decode(stripped) == JPEGDecoder.decode(thumb))
    }
}
