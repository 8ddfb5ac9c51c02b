import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

/// CMYK and YCCK JPEGs (print workflows', Photoshop's, ImageMagick's `-colorspace CMYK`) decode to the RGB browsers,
/// ImageMagick and Pillow show without an ICC profile: R = 255·(1 − C)(1 − K), …, the stored values taken as inverted
/// when Adobe's APP14 marker is there. They were refused as "unsupported: CMYK/YCCK JPEG" everywhere, though
/// `library import` took them.
@Suite struct JPEGCMYKTests {
    /// Four flat quarters of known inks (0…255 each: C, M, Y, K) and the RGB each shows as.
    static let inks: [[Int]] = [[0, 0, 0, 0], [255, 0, 0, 0], [51, 102, 204, 64], [0, 128, 255, 128]]
    static func expected(_ ink: [Int]) -> [Int] {
        (0..<3).map { Int((255 * (1 - Double(ink[$0]) / 255) * (1 - Double(ink[3]) / 255)).rounded()) }
    }

    /// A 32×32 picture of the four quarters, stored inverted (255 − ink, as Adobe's files are) or as ink.
    static func cmyk(inverted: Bool) -> Raster<UInt8> {
        var image = Raster<UInt8>(width: 32, height: 32, channels: 4)
        for y in 0..<32 {
            for x in 0..<32 {
                let ink = inks[(y / 16) * 2 + x / 16]
                for c in 0..<4 { image[x, y, c] = UInt8(inverted ? 255 - ink[c] : ink[c]) }
            }
        }
        return image
    }

    static func check(_ rgb: Raster<UInt8>, tolerance: Int = 4, _ comment: String) {
        #expect(rgb.width == 32 && rgb.height == 32 && rgb.channels == 3, "\(comment)")
        for (index, ink) in inks.enumerated() {
            let x = (index % 2) * 16 + 8, y = (index / 2) * 16 + 8
            let got = (0..<3).map { Int(rgb[x, y, $0]) }, want = expected(ink)
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }, "\(comment) ink \(ink): \(got), expected \(want)")
        }
    }

    @Test(arguments: [(false, true), (true, true), (false, false)])
    func cmykAndYCCKDecodeToTheRGBBrowsersShow(ycck: Bool, adobe: Bool) throws {
        // With Adobe's marker the values are stored inverted, as Photoshop (and libjpeg's readers) take them.
        let jpeg = try JPEGEncoder.encodeCMYK(Self.cmyk(inverted: adobe), ycck: ycck, adobeMarker: adobe)
        let header = try JPEGDecoder.header(of: jpeg)
        #expect(header.components == 4)
        Self.check(try JPEGDecoder.decode(jpeg), "\(ycck ? "YCCK" : "CMYK")\(adobe ? " with APP14" : "")")
    }

    /// ImageMagick's own CMYK JPEG (when it is installed) reads as ImageMagick shows it.
    @Test(.enabled(if: ExternalTool("convert").isInstalled, "ImageMagick not installed"))
    func imageMagicksCMYKJPEGReadsAsItShowsIt() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var rgb = Raster<UInt8>(width: 32, height: 32, channels: 3)
        for y in 0..<32 {
            for x in 0..<32 {
                let colour = Self.expected(Self.inks[(y / 16) * 2 + x / 16])
                for c in 0..<3 { rgb[x, y, c] = UInt8(colour[c]) }
            }
        }
        let png = folder.appendingPathComponent("in.png"), cmyk = folder.appendingPathComponent("cmyk.jpg")
        try PNGCodec.encode(rgb).write(to: png)
        let run = try ExternalTool("convert").run([png.path, "-colorspace", "CMYK", "-quality", "95", cmyk.path])
        let data = try? Data(contentsOf: cmyk)
        // The stand-in some sandboxes put on PATH writes no CMYK file: nothing to compare then.
        guard run.status == 0, let data, (try? JPEGDecoder.header(of: data))?.components == 4 else { return }
        Self.check(try JPEGDecoder.decode(data), tolerance: 6, "ImageMagick's")
    }
}
