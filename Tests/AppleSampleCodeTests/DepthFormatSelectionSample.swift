/*
 The depth-format choice of Apple's depth samples (the TrueDepth streaming sample's configureSession,
 the pattern "Capturing Photos with Depth" describes): take the active format's Float16 depth
 formats, keep the widest, and make it active under the configuration lock. The body of
 selectDepthFormat() is Apple's code, unchanged; the class around it holds what it refers to.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation
import XCTest

final class DepthFormatSelectionSample {
    enum SessionSetupResult {
        case success
        case notAuthorized
        case configurationFailed
    }

    let session = AVCaptureSession()
    let videoDevice: AVCaptureDevice
    var setupResult: SessionSetupResult = .success

    init(videoDevice: AVCaptureDevice) {
        self.videoDevice = videoDevice
    }

    func selectDepthFormat() {
        // Search for highest resolution with half-point depth values
        let depthFormats = videoDevice.activeFormat.supportedDepthDataFormats
        let filtered = depthFormats.filter({
            CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCVPixelFormatType_DepthFloat16
        })
        let selectedFormat = filtered.max(by: {
            first, second in CMVideoFormatDescriptionGetDimensions(first.formatDescription).width < CMVideoFormatDescriptionGetDimensions(second.formatDescription).width
        })

        do {
            try videoDevice.lockForConfiguration()
            videoDevice.activeDepthDataFormat = selectedFormat
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
            setupResult = .configurationFailed
            session.commitConfiguration()
            return
        }
    }
}

final class DepthFormatSelectionSampleTests: XCTestCase {
    func testTrueDepthSelectsSixFortyByFourEightyHalfFloatDepth() throws {
        let device = try XCTUnwrap(AVCaptureDevice.makeSimulatedDevice(.builtInTrueDepthCamera, position: .front))
        XCTAssertEqual(CMFormatDescriptionGetMediaSubType(try XCTUnwrap(device.activeDepthDataFormat).formatDescription),
                       kCVPixelFormatType_DisparityFloat16, "the default before the sample runs")
        let sample = DepthFormatSelectionSample(videoDevice: device)
        sample.selectDepthFormat()
        XCTAssertEqual(sample.setupResult, .success)
        let selected = try XCTUnwrap(device.activeDepthDataFormat)
        XCTAssertEqual(CMFormatDescriptionGetMediaSubType(selected.formatDescription), kCVPixelFormatType_DepthFloat16)
        let dimensions = CMVideoFormatDescriptionGetDimensions(selected.formatDescription)
        XCTAssertEqual(dimensions.width, 640)
        XCTAssertEqual(dimensions.height, 480)
        XCTAssertTrue(device.activeFormat.supportedDepthDataFormats.contains { $0 === selected })
    }

    func testDualCameraSelectsSevenSixtyEightByFiveSeventySixHalfFloatDepth() throws {
        let device = try XCTUnwrap(AVCaptureDevice.makeSimulatedDevice(.builtInDualCamera, position: .back))
        let sample = DepthFormatSelectionSample(videoDevice: device)
        sample.selectDepthFormat()
        let selected = try XCTUnwrap(device.activeDepthDataFormat)
        XCTAssertEqual(CMFormatDescriptionGetMediaSubType(selected.formatDescription), kCVPixelFormatType_DepthFloat16)
        XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(selected.formatDescription).width, 768)
        XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(selected.formatDescription).height, 576)
    }
}
