import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCaptureTools

@Suite struct FileInspectorDepthTests {
    static let calibration = CameraCalibration(
        focalLength: SIMD2(2742.5, 2742.5), principalPoint: SIMD2(2015.25, 1511.75), referenceDimensions: Size(width: 4032, height: 3024),
        translation: SIMD3(-0.012, 0, 0), pixelSize: 0.0019, lensDistortionLookupTable: [0, 0.001, 0.002],
        inverseLensDistortionLookupTable: [0, -0.001, -0.002])

    static func depth() -> DepthAuxiliaryImage {
        var values = Raster<Float>(width: 64, height: 48, channels: 1, repeating: 0.5)
        for y in 0..<48 { for x in 0..<64 { values[x, y] = 0.5 + Float(x) / 64 } }
        return DepthAuxiliaryImage(map: DepthMap(values: values, kind: .disparity, accuracy: .relative, isFiltered: true,
                                                 calibration: calibration))
    }

    static let matte = MatteAuxiliaryImage(matte: Raster<Float>(width: 32, height: 24, channels: 1, repeating: 1))
    static let image = Raster<UInt8>(width: 128, height: 96, channels: 3, repeating: 100)

    static func check(_ report: FileReport) {
        #expect(report.value("Size", in: "Depth") == "64×48")
        #expect(report.value("Type", in: "Depth") == "disparity (hdis), stored L008")
        #expect(report.value("Accuracy", in: "Depth") == "relative")
        #expect(report.value("Filtered", in: "Depth") == "yes")
        #expect(report.value("Range", in: "Depth") == "0.5…1.484 1/m")
        #expect(report.value("Size", in: "Matte") == "32×24")
        #expect(report.value("fx, fy", in: "Calibration") == "2742.5, 2742.5 px")
        #expect(report.value("cx, cy", in: "Calibration") == "2015.25, 1511.75 px")
        #expect(report.value("Reference size", in: "Calibration") == "4032×3024")
        #expect(report.value("Pixel size", in: "Calibration") == "1.9 µm")
        #expect(report.value("Translation", in: "Calibration") == "-12, 0, 0 mm")
        #expect(report.value("Baseline", in: "Calibration") == "12 mm")
        #expect(report.value("Distortion", in: "Calibration") == "3-entry look-up table")
    }

    @Test func reportsDepthMatteAndCalibrationOfAHEIC() throws {
        var options = HEIFEncodingOptions()
        options.depth = Self.depth()
        options.portraitMatte = Self.matte
        let report = try FileInspector.inspect(try HEIFEncoder.encode(Self.image, options: options))
        Self.check(report)
    }

    @Test func reportsDepthMatteAndCalibrationOfAJPEG() throws {
        let jpeg = try JPEGEncoder.encode(Self.image, depth: Self.depth(), portraitMatte: Self.matte)
        let report = try FileInspector.inspect(jpeg)
        #expect(report.width == 128)
        Self.check(report)
    }

    @Test func filesWithoutDepthHaveNoDepthSection() throws {
        let report = try FileInspector.inspect(try JPEGEncoder.encode(Self.image))
        #expect(!report.entries.contains { ["Depth", "Matte", "Calibration"].contains($0.section) })
    }
}
