import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCaptureTools

@Suite struct FileInspectorHEIFTests {
    static let heic: Data = {
        var options = HEIFEncodingOptions()
        options.colorSpace = .displayP3
        return try! HEIFEncoder.encode(Raster<UInt8>(width: 96, height: 64, channels: 3, repeating: 120), options: options)
    }()

    @Test func reportsTheParsedPrimaryImageAndProfile() throws {
        let report = try FileInspector.inspect(Self.heic)
        #expect(report.kind == .heif && report.width == 96 && report.height == 64)
        #expect(report.iccProfileDescription == "Display P3")
    }

    @Test(arguments: [0.3, 0.6, 0.95])
    func truncatedHEICIsAnError(fraction: Double) {
        let cut = Self.heic.prefix(Int(Double(Self.heic.count) * fraction))
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(cut) }
    }

    @Test func hugeImageExtentsDoNotTrap() {
        // ftyp + a meta-less file with an 'ispe' claiming 0xFFFFFFFF × 0xFFFFFFFF.
        var data = Data([0, 0, 0, 16]) + Data("ftypheic".utf8) + Data([0, 0, 0, 0])
        data += Data([0, 0, 0, 20]) + Data("ispe".utf8) + Data([0, 0, 0, 0]) + Data(repeating: 0xFF, count: 8)
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(data) }
    }
}
