import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct HEIFCodecTests {
    static func exif() -> ExifMetadata {
        var exif = ExifMetadata()
        exif.make = "Apple"
        exif.model = "iPhone (OpenCapture)"
        exif.exposureTime = 1.0 / 120
        exif.fNumber = 1.8
        exif.iso = 100
        return exif
    }

    @Test func roundTripThroughLibheif() throws {
        let image = TestImages.colourful(width: 700, height: 500)
        var options = HEIFEncodingOptions()
        options.exif = Self.exif()
        let heic = try HEIFEncoder.encode(image, options: options)
        let decoded = try HEIFDecoder.decode(heic)
        #expect(decoded.size == Size(width: 700, height: 500))
        let psnr = TestImages.psnr(image, decoded)
        #expect(psnr >= 35, "PSNR \(psnr) dB")

        let info = try HEIFDecoder.info(heic)
        #expect(info.width == 700 && info.height == 500)
        #expect(info.primaryItemType == "grid")
        #expect(info.thumbnailSize == Size(width: 320, height: 228))
        #expect(info.hasExif && !info.hasXMP)
        #expect(info.colorProfileType == "prof")
        #expect(info.colorProfileDescription == "sRGB IEC61966-2.1")
        #expect(info.colorPrimaries == 1)
        #expect(info.itemCount == 2 + 1 + 1 + 1)    // 2 tiles, grid, thumbnail, Exif
    }

    @Test(.enabled(if: ExternalTool.heifInfo.isInstalled, "heif-info (libheif-examples) not installed"))
    func heifInfoListsPrimaryThumbnailExifAndProfile() throws {
        var options = HEIFEncodingOptions()
        options.exif = Self.exif()
        let heic = try HEIFEncoder.encode(TestImages.colourful(width: 700, height: 500), options: options)
        let result = try ExternalTool.heifInfo.run([], file: heic, fileExtension: "heic")
        let output = result.output
        #expect(result.status == 0, "\(output)\(result.errorOutput)")
        #expect(output.contains("image: 700x500"), "\(output)")
        #expect(output.contains("thumbnail: 320x228"), "\(output)")
        #expect(output.contains("Exif: "), "\(output)")
        #expect(output.contains("color profile: prof"), "\(output)")
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolReadsExifWithoutWarnings() throws {
        var options = HEIFEncodingOptions()
        options.exif = Self.exif()
        options.colorSpace = .displayP3
        options.xmp = Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="OpenCapture"/></rdf:RDF></x:xmpmeta>"#.utf8)
        let heic = try HEIFEncoder.encode(TestImages.colourful(width: 300, height: 200), options: options)
        let output = try ExternalTool.exiftool.run(["-j", "-G1", "-a", "-warning", "-all:all"], file: heic, fileExtension: "heic").standardOutput
        let json = try JSONSerialization.jsonObject(with: output) as? [[String: Any]]
        let tags = (json?.first ?? [:]).mapValues { "\($0)" }
        #expect(tags["IFD0:Make"] == "Apple", "\(tags)")
        #expect(tags["IFD0:Model"] == "iPhone (OpenCapture)")
        #expect(tags["ExifIFD:ExposureTime"] == "1/120")
        #expect(tags.first { $0.key.hasSuffix(":ProfileDescription") }?.value == "Display P3", "\(tags)")
        #expect(tags["XMP-xmp:CreatorTool"] == "OpenCapture", "\(tags)")
        #expect(!tags.keys.contains { $0.hasSuffix(":Warning") }, "\(tags)")
        let info = try HEIFDecoder.info(heic)
        #expect(info.colorProfileDescription == "Display P3" && info.colorPrimaries == 12 && info.hasXMP)
    }

    @Test(arguments: [(513, 257), (64, 64), (17, 9), (1, 1), (1030, 40)])
    func oddSizes(_ width: Int, _ height: Int) throws {
        let image = TestImages.colourful(width: width, height: height)
        let decoded = try HEIFDecoder.decode(try HEIFEncoder.encode(image, options: HEIFEncodingOptions()))
        #expect(decoded.size == Size(width: width, height: height))
        // Tiny images are all edges: 4:2:0 chroma costs more there.
        if width * height > 1 { #expect(TestImages.psnr(image, decoded) > (width * height > 1000 ? 30 : 20)) }
    }

    @Test func garbageThrows() {
        #expect(throws: MediaFormatError.self) { _ = try HEIFDecoder.decode(Data()) }
        #expect(throws: MediaFormatError.self) { _ = try HEIFDecoder.decode(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7919) })) }
        #expect(throws: MediaFormatError.self) { _ = try HEIFDecoder.info(Data("not a heif file at all".utf8)) }
    }
}
