import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

/// The HEIF encoder's planes and `PixelBuffer.yCbCr420` come from the one conversion, and it
/// matches the BT.601 full-range formulas within rounding.
@Suite struct YCbCr420Tests {
    @Test func heifPlanesAndPixelBufferAgree() throws {
        let image = TestImages.colourful(width: 34, height: 22)
        let planes = YCbCrPlanes(image, x0: 0, y0: 0, width: 34, height: 22)
        let buffer = try #require(PixelBuffer.yCbCr420(from: image, fullRange: true, matrix: .bt601))
        let y = try #require(buffer.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        let c = try #require(buffer.baseAddress(ofPlane: 1)).assumingMemoryBound(to: UInt8.self)
        let ys = buffer.planes[0].bytesPerRow, cs = buffer.planes[1].bytesPerRow
        for j in 0..<22 { for i in 0..<34 { #expect(y[j * ys + i] == planes.y[j * 34 + i]) } }
        for j in 0..<11 {
            for i in 0..<17 {
                #expect(c[j * cs + 2 * i] == planes.cb[j * 17 + i])
                #expect(c[j * cs + 2 * i + 1] == planes.cr[j * 17 + i])
            }
        }
    }

    @Test func matchesTheBT601FormulasWithinRounding() {
        var image = Raster<UInt8>(width: 2, height: 2, channels: 3)
        for p in 0..<4 { image.storage[3 * p] = 200; image.storage[3 * p + 1] = 40; image.storage[3 * p + 2] = 90 }
        let planes = YCbCrPlanes(image, x0: 0, y0: 0, width: 2, height: 2)
        let (r, g, b) = (200.0, 40.0, 90.0)
        let luma = 0.299 * r + 0.587 * g + 0.114 * b
        #expect(abs(Double(planes.y[0]) - luma) <= 0.5 + 1e-9)
        #expect(abs(Double(planes.cb[0]) - (128 + (b - luma) * 0.5 / 0.886)) <= 1)
        #expect(abs(Double(planes.cr[0]) - (128 + (r - luma) * 0.5 / 0.701)) <= 1)
        // Video range squeezes luma into 16…235.
        let video = PixelBuffer.yCbCr420(from: image, fullRange: false, matrix: .bt601)!
        let vy = Double(video.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self)[0])
        #expect(abs(vy - (16 + luma * 219 / 255)) <= 1)
    }

    @Test func oddSizesRepeatTheLastPixel() {
        let image = TestImages.colourful(width: 3, height: 3)
        let buffer = PixelBuffer.yCbCr420(from: image, fullRange: true, matrix: .bt601)!
        #expect(buffer.planes[1].width == 2 && buffer.planes[1].height == 2)
        let planes = YCbCrPlanes(image, x0: 2, y0: 2, width: 2, height: 2)
        // All four samples are the bottom-right pixel.
        #expect(Set(planes.y).count == 1)
    }
}
