import CaptureCore
import Testing
@testable import OpenCapture

/// `AVCaptureDevice.Format.supportedDepthDataFormats` and `AVCaptureDevice.activeDepthDataFormat`.
@Suite(.serialized) struct DepthFormatTests {
    private func describe(_ formats: [AVCaptureDevice.Format]) -> [String] {
        formats.map {
            let d = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
            return "\(fourCharacterText(CMFormatDescriptionGetMediaSubType($0.formatDescription))) \(d.width)x\(d.height)"
        }
    }

    private func format(_ device: AVCaptureDevice, _ width: Int32, _ height: Int32) throws -> AVCaptureDevice.Format {
        try #require(device.formats.first { $0.formatDescription.dimensions.width == width && $0.formatDescription.dimensions.height == height })
    }

    private let types = ["'hdis'", "'fdis'", "'hdep'", "'fdep'"]
    private func all(_ size: String) -> [String] { types.map { "\($0) \(size)" } }

    @Test func singleCamerasHaveNoDepthFormats() throws {
        for type in [AVCaptureDevice.DeviceType.builtInWideAngleCamera, .builtInTelephotoCamera] {
            let device = try #require(AVCaptureDevice.makeSimulatedDevice(type, position: .back))
            #expect(device.formats.allSatisfy { $0.supportedDepthDataFormats.isEmpty })
            #expect(device.activeDepthDataFormat == nil && device.activeDepthDataSelection == nil)
        }
    }

    @Test func dualCameraListsDepthWithItsFourByThreeFormats() throws {
        let dual = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInDualCamera, position: .back))
        #expect(describe(try format(dual, 4032, 3024).supportedDepthDataFormats) == all("320x240") + all("768x576"))
        #expect(describe(try format(dual, 1920, 1440).supportedDepthDataFormats) == all("320x240") + all("768x576"))
        #expect(describe(try format(dual, 640, 480).supportedDepthDataFormats) == all("320x240"))
        #expect(describe(try format(dual, 480, 360).supportedDepthDataFormats) == all("320x240"))
        #expect(try format(dual, 192, 144).supportedDepthDataFormats.isEmpty, "no depth wider than the video")
        #expect(try format(dual, 1920, 1080).supportedDepthDataFormats.isEmpty, "16:9 has no depth")
        #expect(try format(dual, 352, 288).supportedDepthDataFormats.isEmpty)

        let depth = try format(dual, 4032, 3024).supportedDepthDataFormats[0]
        #expect(depth.mediaType == .depthData && depth.supportedDepthDataFormats.isEmpty && depth.supportedMaxPhotoDimensions.isEmpty)
        #expect(depth.description.contains("'dpth'/'hdis'  320x 240"))
        #expect(try format(dual, 4032, 3024).mediaType == .video)
    }

    @Test func trueDepthCameraListsSixFortyAndThreeTwenty() throws {
        let front = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInTrueDepthCamera, position: .front))
        #expect(describe(try format(front, 3088, 2320).supportedDepthDataFormats) == all("320x240") + all("640x480"))
        #expect(describe(try format(front, 640, 480).supportedDepthDataFormats) == all("320x240") + all("640x480"))
        #expect(describe(try format(front, 480, 360).supportedDepthDataFormats) == all("320x240"))
        #expect(try format(front, 1280, 720).supportedDepthDataFormats.isEmpty)
    }

    @Test func activeDepthDataFormatDefaultsToTheLargestHalfFloatDisparity() throws {
        let dual = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInDualCamera, position: .back))
        #expect(describe([try #require(dual.activeDepthDataFormat)]) == ["'hdis' 768x576"])
        let front = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInTrueDepthCamera, position: .front))
        let active = try #require(front.activeDepthDataFormat)
        #expect(describe([active]) == ["'hdis' 640x480"])
        #expect(front.activeFormat.supportedDepthDataFormats.contains { $0 === active })
        let selection = try #require(front.activeDepthDataSelection)
        #expect(selection.depthDataType == kCVPixelFormatType_DisparityFloat16 && selection.size == Size(width: 640, height: 480))
    }

    @Test func settingTheDepthFormatFollowsApplesRules() throws {
        let front = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInTrueDepthCamera, position: .front))
        let original = try #require(front.activeDepthDataFormat)
        let hdep320 = try #require(front.activeFormat.supportedDepthDataFormats.first {
            $0.formatDescription.mediaSubType == kCVPixelFormatType_DepthFloat16 && $0.formatDescription.dimensions.width == 320
        })

        // Without the configuration lock: reported, unchanged.
        let unlocked = DiagnosticsRecorder.reports(containing: "activeDepthDataFormat requires lockForConfiguration()") {
            front.activeDepthDataFormat = hdep320
        }
        #expect(unlocked.count == 1 && front.activeDepthDataFormat === original)

        try front.lockForConfiguration()
        defer { front.unlockForConfiguration() }
        front.activeDepthDataFormat = hdep320
        #expect(front.activeDepthDataFormat === hdep320)
        #expect(front.activeDepthDataSelection?.depthDataType == kCVPixelFormatType_DepthFloat16)

        // A depth format of another video format, or nil, is not in the list: reported, unchanged.
        let foreign = try format(front, 480, 360).supportedDepthDataFormats[0]
        let refused = DiagnosticsRecorder.reports(containing: "not in activeFormat.supportedDepthDataFormats") {
            front.activeDepthDataFormat = foreign
            front.activeDepthDataFormat = nil
        }
        #expect(refused.count == 2 && front.activeDepthDataFormat === hdep320)

        // Changing the active format resets the depth format to the new format's default.
        front.activeFormat = try format(front, 480, 360)
        #expect(describe([try #require(front.activeDepthDataFormat)]) == ["'hdis' 320x240"])
        front.activeFormat = try format(front, 1280, 720)
        #expect(front.activeDepthDataFormat == nil)
        // With no depth formats, nil is the only value and setting it is fine.
        let none = DiagnosticsRecorder.reports(containing: "activeDepthDataFormat") { front.activeDepthDataFormat = nil }
        #expect(none.isEmpty && front.activeDepthDataFormat == nil)
    }
}
