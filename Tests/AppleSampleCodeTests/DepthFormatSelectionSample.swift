/*
 The depth-format choice of Apple's depth samples (the TrueDepth streaming sample's configureSession,
 the pattern "Capturing Photos with Depth" describes): take the active format's Float16 depth
 formats, keep the widest, and make it active under the configuration lock; and that sample's
 depth data output (added unfiltered, its connection enabled). The bodies of selectDepthFormat() and
 addDepthDataOutput() are Apple's code, unchanged; the class around them holds what they refer to.
 The sample then pairs depth with video through AVCaptureDataOutputSynchronizer: its
 dataOutputSynchronizer(_:didOutput:) below is Apple's code up to where it hands the pair to Metal
 (the rest is replaced by keeping the pair).
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
    let depthDataOutput = AVCaptureDepthDataOutput()

    func addDepthDataOutput() {
        // Add a depth data output
        if session.canAddOutput(depthDataOutput) {
            session.addOutput(depthDataOutput)
            depthDataOutput.isFilteringEnabled = false
            if let connection = depthDataOutput.connection(with: .depthData) {
                connection.isEnabled = true
            } else {
                print("No AVCaptureConnection")
            }
        } else {
            print("Could not add depth data output to the session")
            setupResult = .configurationFailed
            session.commitConfiguration()
            return
        }
    }

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

/// The TrueDepth streaming sample's synchronized delivery: video and depth data outputs behind one synchronizer.
final class SynchronizedDepthStreamingSample: NSObject, AVCaptureDataOutputSynchronizerDelegate {
    let videoDataOutput = AVCaptureVideoDataOutput()
    let depthDataOutput: AVCaptureDepthDataOutput
    let dataOutputQueue = DispatchQueue(label: "video data queue", qos: .userInitiated, attributes: [], autoreleaseFrequency: .workItem)
    var outputSynchronizer: AVCaptureDataOutputSynchronizer?
    var renderingEnabled = true
    private let lock = NSLock()
    private var _pairs: [(video: CVPixelBuffer, depth: CVPixelBuffer, time: CMTime, depthTime: CMTime)] = []
    var pairs: [(video: CVPixelBuffer, depth: CVPixelBuffer, time: CMTime, depthTime: CMTime)] { lock.lock(); defer { lock.unlock() }; return _pairs }
    var onPair: (() -> Void)?

    init(depthDataOutput: AVCaptureDepthDataOutput) {
        self.depthDataOutput = depthDataOutput
    }

    func configureSynchronizer() {
        // Use an AVCaptureDataOutputSynchronizer to synchronize the video data and depth data outputs.
        // The first output in the dataOutputs array, in this case the AVCaptureVideoDataOutput, is the "master" output.
        outputSynchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [videoDataOutput, depthDataOutput])
        outputSynchronizer!.setDelegate(self, queue: dataOutputQueue)
    }

    func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer,
                                didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection) {
        
        if !renderingEnabled {
            return
        }
        
        // Read all outputs
        guard renderingEnabled,
            let syncedDepthData: AVCaptureSynchronizedDepthData =
            synchronizedDataCollection.synchronizedData(for: depthDataOutput) as? AVCaptureSynchronizedDepthData,
            let syncedVideoData: AVCaptureSynchronizedSampleBufferData =
            synchronizedDataCollection.synchronizedData(for: videoDataOutput) as? AVCaptureSynchronizedSampleBufferData else {
                // only work on synced pairs
                return
        }
        
        if syncedDepthData.depthDataWasDropped || syncedVideoData.sampleBufferWasDropped {
            return
        }
        
        let depthData = syncedDepthData.depthData
        let depthPixelBuffer = depthData.depthDataMap
        let sampleBuffer = syncedVideoData.sampleBuffer
        guard let videoPixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer),
            let formatDescription = CMSampleBufferGetFormatDescription(sampleBuffer) else {
                return
        }
        _ = formatDescription
        // Linux: removed the Metal rendering; the pair is kept for the test.
        lock.lock()
        _pairs.append((videoPixelBuffer, depthPixelBuffer, CMSampleBufferGetPresentationTimeStamp(sampleBuffer), syncedDepthData.timestamp))
        lock.unlock()
        onPair?()
    }
}

final class DepthFormatSelectionSampleTests: XCTestCase {
    func testTrueDepthStreamsVideoAndDepthInSynchronizedPairs() throws {
        let device = try XCTUnwrap(AVCaptureDevice.makeSimulatedDevice(.builtInTrueDepthCamera, position: .front))
        let sample = DepthFormatSelectionSample(videoDevice: device)
        let streaming = SynchronizedDepthStreamingSample(depthDataOutput: sample.depthDataOutput)
        sample.session.beginConfiguration()
        sample.session.sessionPreset = .vga640x480
        sample.session.addInput(try AVCaptureDeviceInput(device: device))
        sample.session.addOutput(streaming.videoDataOutput)
        streaming.videoDataOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
        sample.addDepthDataOutput()
        sample.selectDepthFormat()
        sample.session.commitConfiguration()
        streaming.configureSynchronizer()
        let got = expectation(description: "three synchronized pairs")
        var fulfilled = false
        streaming.onPair = { if !fulfilled, streaming.pairs.count >= 3 { fulfilled = true; got.fulfill() } }
        sample.session.startRunning()
        defer { sample.session.stopRunning() }
        wait(for: [got], timeout: 60)
        for pair in streaming.pairs {
            XCTAssertEqual(pair.time, pair.depthTime, "the map was measured with this frame")
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(pair.video), kCVPixelFormatType_32BGRA)
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(pair.depth), kCVPixelFormatType_DepthFloat16)
            XCTAssertEqual(CVPixelBufferGetWidth(pair.depth), 640)
        }
    }

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

    func testTrueDepthStreamsUnfilteredDepthThroughApplesOutputSetup() throws {
        let device = try XCTUnwrap(AVCaptureDevice.makeSimulatedDevice(.builtInTrueDepthCamera, position: .front))
        let sample = DepthFormatSelectionSample(videoDevice: device)
        sample.session.beginConfiguration()
        sample.session.sessionPreset = .vga640x480
        sample.session.addInput(try AVCaptureDeviceInput(device: device))
        sample.addDepthDataOutput()
        sample.selectDepthFormat()
        sample.session.commitConfiguration()
        XCTAssertEqual(sample.setupResult, .success)
        final class Receiver: NSObject, AVCaptureDepthDataOutputDelegate, @unchecked Sendable {
            let got = XCTestExpectation(description: "a depth map")
            var depth: AVDepthData?
            func depthDataOutput(_ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
                                 connection: AVCaptureConnection) {
                if depth == nil { depth = depthData; got.fulfill() }
            }
        }
        let receiver = Receiver()
        sample.depthDataOutput.setDelegate(receiver, callbackQueue: DispatchQueue(label: "depth"))
        sample.session.startRunning()
        defer { sample.session.stopRunning() }
        wait(for: [receiver.got], timeout: 60)
        let depth = try XCTUnwrap(receiver.depth)
        XCTAssertEqual(depth.depthDataType, kCVPixelFormatType_DepthFloat16)
        XCTAssertFalse(depth.isDepthDataFiltered)
        XCTAssertEqual(depth.depthDataAccuracy, .absolute)
        XCTAssertEqual(CVPixelBufferGetWidth(depth.depthDataMap), 640)
    }
}
