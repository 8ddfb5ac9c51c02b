import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct RadianceHDRTests {
    /// Smooth HDR content over six decades with flat patches (long runs) and a black corner.
    static func image(width: Int, height: Int) -> Raster<Float> {
        var r = Raster<Float>(width: width, height: height, channels: 3)
        for y in 0..<height {
            for x in 0..<width {
                let flat = x < width / 4
                let v = flat ? 0.5 : Float(pow(10, -3 + 6 * Double(x) / Double(width))) * (1 + 0.2 * Float(sin(Double(y))))
                r[x, y, 0] = v; r[x, y, 1] = v * 0.6; r[x, y, 2] = x == width - 1 && y == 0 ? 0 : v * 0.3
                if x == 0 && y == 0 { for c in 0..<3 { r[x, y, c] = 0 } }
            }
        }
        return r
    }

    static func expectClose(_ a: Raster<Float>, _ b: Raster<Float>) {
        #expect(a.width == b.width && a.height == b.height && a.channels == 3)
        for i in stride(from: 0, to: a.storage.count, by: 3) {
            let scale = max(a.storage[i], a.storage[i + 1], a.storage[i + 2])
            for c in 0..<3 where scale > 0 {
                #expect(abs(b.storage[i + c] - a.storage[i + c]) <= 0.01 * scale)
            }
            if scale == 0 { #expect(b.storage[i] == 0 && b.storage[i + 1] == 0 && b.storage[i + 2] == 0) }
        }
    }

    @Test func rleRoundTripWithinRGBEPrecision() throws {
        let original = Self.image(width: 97, height: 13)
        let data = try RadianceHDR.encode(original)
        #expect(String(decoding: data.prefix(40), as: UTF8.self).hasPrefix("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n"))
        #expect(data.count < 97 * 13 * 4)  // the flat quarter compresses
        Self.expectClose(original, try RadianceHDR.decode(data))
    }

    @Test func narrowImagesUseFlatScanlines() throws {
        let original = Self.image(width: 5, height: 4)
        let data = try RadianceHDR.encode(original)
        #expect(data.count == data.firstRange(of: Data("+X 5\n".utf8))!.upperBound + 5 * 4 * 4)
        Self.expectClose(original, try RadianceHDR.decode(data))
    }

    @Test func decodesBottomUpFlatFiles() throws {
        var data = Data("#?RGBE\nFORMAT=32-bit_rle_rgbe\n\n+Y 2 +X 1\n".utf8)
        data.append(contentsOf: [128, 64, 0, 130, 128, 128, 128, 128])  // bottom row (2, 1, 0) first, then top row (0.5…)
        let image = try RadianceHDR.decode(data)
        #expect(abs(image[0, 1, 0] - 2) < 0.01 && abs(image[0, 1, 1] - 1) < 0.01 && image[0, 1, 2] < 0.01)
        #expect(abs(image[0, 0, 0] - 0.5) < 0.01)
    }

    @Test func garbageThrows() throws {
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(Data()) }
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(Data("not an image at all".utf8)) }
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(Data("#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\n\0\0\0\0".utf8)) }
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(Data("#?RADIANCE\n\n-Y 9999999 +X 9999999\n".utf8)) }
        let good = try RadianceHDR.encode(Self.image(width: 40, height: 6))
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(good.prefix(good.count - 7)) }
        var corrupt = good
        let scanline = corrupt.firstRange(of: Data([2, 2, 0, 40]))!
        corrupt[scanline.upperBound - 1] = 41  // the scanline claims a different width
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(corrupt) }
        corrupt[scanline.upperBound - 1] = 40
        corrupt[scanline.upperBound] = 0  // a zero literal count
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(corrupt) }
        var random = RandomSource(seed: 3)
        var noise = Data("#?RADIANCE\n\n-Y 8 +X 16\n".utf8)
        noise.append(contentsOf: (0..<300).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        _ = try? RadianceHDR.decode(noise)  // must not trap; either decodes or throws
    }

    @Test func encodingRejectsNonRGB() {
        #expect(throws: MediaFormatError.self) { try RadianceHDR.encode(Raster<Float>(width: 4, height: 4, channels: 1)) }
    }
}
