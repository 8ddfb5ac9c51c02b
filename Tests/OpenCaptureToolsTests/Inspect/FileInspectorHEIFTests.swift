import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCaptureTools

@Suite struct FileInspectorHEIFTests {
    static func exif() -> ExifMetadata {
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        exif.model = "Simulated iPhone"
        exif.exposureTime = 1.0 / 60
        exif.iso = 200
        exif.fNumber = 1.8
        exif.colorSpace = 0xFFFF
        return exif
    }

    /// A 400×240 Display P3 HEIC with EXIF, stored as a 4×2 grid of 128×128 tiles and a 160×96 thumbnail.
    static func heic(orientation: Int = 1) -> Data {
        var options = HEIFEncodingOptions()
        options.colorSpace = .displayP3
        options.tileSize = 128
        options.thumbnailMaxDimension = 160
        options.exif = exif()
        options.orientation = orientation
        return try! HEIFEncoder.encode(Raster<UInt8>(width: 400, height: 240, channels: 3, repeating: 120), options: options)
    }

    static let upright = heic()

    @Test func reportsThePrimaryImageThumbnailExifAndProfileFromTheBoxes() throws {
        let report = try FileInspector.inspect(Self.upright)
        #expect(report.kind == .heif)
        #expect(report.width == 400 && report.height == 240, "the grid's size, not a tile's")
        #expect(report.thumbnailWidth == 160 && report.thumbnailHeight == 96, "the thmb item, not a 128×128 tile")
        #expect(report.value("Primary item", in: "HEIF") == "grid")
        #expect(report.value("Make", in: "EXIF") == "OpenCapture")
        #expect(report.value("Model", in: "EXIF") == "Simulated iPhone")
        #expect(report.value("ExposureTime", in: "EXIF") == "1/60 s")
        #expect(report.value("ISO", in: "EXIF") == "200")
        #expect(report.value("FNumber", in: "EXIF") == "f/1.8")
        #expect(report.iccProfileDescription == "Display P3")
        #expect(report.value("nclx primaries", in: "ICC") == "Display P3 (12)")
    }

    @Test func aRotatedHEICReportsItsDisplayedSizes() throws {
        let report = try FileInspector.inspect(Self.heic(orientation: 6))
        #expect(report.width == 240 && report.height == 400)
        #expect(report.thumbnailWidth == 96 && report.thumbnailHeight == 160)
        #expect(report.value("Orientation", in: "EXIF") == "6")
        // EXIF 6 (turn 90° clockwise to display) is irot 3 (270° counter-clockwise) over the stored 400×240.
        #expect(report.value("Rotation", in: "HEIF") == "270° counter-clockwise (irot), stored 400×240")
        #expect(try FileInspector.inspect(Self.upright).value("Rotation", in: "HEIF") == nil)
    }

    @Test(arguments: [0.3, 0.6, 0.95, 0.999])
    func truncatedHEICIsAnError(fraction: Double) {
        let cut = Self.upright.prefix(Int(Double(Self.upright.count) * fraction))
        #expect(throws: FileInspectionError.truncated) { try FileInspector.inspect(cut) }
    }

    @Test func hugeImageExtentsDoNotTrap() {
        // ftyp + a meta-less file with an 'ispe' claiming 0xFFFFFFFF × 0xFFFFFFFF.
        var data = Data([0, 0, 0, 16]) + Data("ftypheic".utf8) + Data([0, 0, 0, 0])
        data += Data([0, 0, 0, 20]) + Data("ispe".utf8) + Data([0, 0, 0, 0]) + Data(repeating: 0xFF, count: 8)
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(data) }
    }
}
