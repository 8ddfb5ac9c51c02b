/*
 Apple's article "Capturing Photos with Depth": select a depth-capable camera, add a photo output,
 set the photo preset, enable depth delivery on the output once it is in the session, ask for depth
 in HEVC photo settings, and read `photo.depthData` in the delegate. The bodies of configure() and
 capture() are the article's code with two changes the article's own text asks for: the device
 type is a parameter (the article's listing says `.builtInWideAngleCamera` under the message
 "No dual camera."; its text says to select the dual or TrueDepth camera), and depth delivery is
 enabled after `addOutput` (the text: "enabling depth capture on your AVCapturePhotoOutput" once the
 pipeline is configured; before that the output has no camera and `isDepthDataDeliverySupported`
 is false, on iOS as here). The delegate is the article's `photoOutput(_:didFinishProcessingPhoto:error:)`.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation
import XCTest

final class CapturingPhotosWithDepthSample: NSObject, AVCapturePhotoCaptureDelegate {
    let captureSession = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    private let lock = NSLock()
    private var _depthData: AVDepthData?
    private var _fileData: Data?
    private var _error: Error?
    let finished = DispatchSemaphore(value: 0)

    var depthData: AVDepthData? { lock.lock(); defer { lock.unlock() }; return _depthData }
    var fileData: Data? { lock.lock(); defer { lock.unlock() }; return _fileData }
    var error: Error? { lock.lock(); defer { lock.unlock() }; return _error }

    func configure(deviceType: AVCaptureDevice.DeviceType) {
        // Select a depth-capable capture device.
        guard let videoDevice = AVCaptureDevice.default(deviceType,
            for: .video, position: .unspecified)
            else { fatalError("No dual camera.") }
        guard let videoDeviceInput = try? AVCaptureDeviceInput(device: videoDevice),
            self.captureSession.canAddInput(videoDeviceInput)
            else { fatalError("Can't add video input.") }
        self.captureSession.beginConfiguration()
        self.captureSession.addInput(videoDeviceInput)

        // Set up photo output for depth data capture.
        guard self.captureSession.canAddOutput(photoOutput)
            else { fatalError("Can't add photo output.") }
        self.captureSession.addOutput(photoOutput)
        self.captureSession.sessionPreset = .photo
        self.captureSession.commitConfiguration()
        photoOutput.isDepthDataDeliveryEnabled = photoOutput.isDepthDataDeliverySupported
    }

    func capture() {
        let photoSettings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        photoSettings.isDepthDataDeliveryEnabled =
            photoOutput.isDepthDataDeliverySupported
        photoOutput.capturePhoto(with: photoSettings, delegate: self)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.lock()
        _depthData = photo.depthData
        _fileData = photo.fileDataRepresentation()
        _error = error
        lock.unlock()
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: Error?) {
        finished.signal()
    }
}

/// Reading depth back from a photo file, as Apple's "Image Editing with Depth" (WWDC 2017) code does:
/// the auxiliary data dictionary from ImageIO, then `AVDepthData(fromDictionaryRepresentation:)`.
func depthDataFromFile(_ fileData: Data) -> AVDepthData? {
    guard let source = CGImageSourceCreateWithData(fileData as CFData, nil),
          let auxDataInfo = CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0,
              kCGImageAuxiliaryDataTypeDisparity) as? [AnyHashable : Any] else { return nil }
    return try? AVDepthData(fromDictionaryRepresentation: auxDataInfo)
}

final class CapturingPhotosWithDepthTests: XCTestCase {
    private func shoot(_ type: AVCaptureDevice.DeviceType) throws -> CapturingPhotosWithDepthSample {
        let sample = CapturingPhotosWithDepthSample()
        sample.configure(deviceType: type)
        sample.captureSession.startRunning()
        defer { sample.captureSession.stopRunning() }
        XCTAssertTrue(sample.photoOutput.isDepthDataDeliveryEnabled)
        sample.capture()
        XCTAssertEqual(sample.finished.wait(timeout: .now() + captureTimeout), .success)
        XCTAssertNil(sample.error)
        return sample
    }

    /// The dual camera: relative disparity at 768×576 (the photo format's depth format), filtered,
    /// embedded in the HEIC as an auxiliary image.
    func testDualCameraDeliversRelativeDisparityInTheHEIC() throws {
        let sample = try shoot(.builtInDualCamera)
        let depth = try XCTUnwrap(sample.depthData)
        XCTAssertEqual(depth.depthDataType, kCVPixelFormatType_DisparityFloat16)
        XCTAssertEqual(depth.depthDataAccuracy, .relative)
        XCTAssertTrue(depth.isDepthDataFiltered)
        XCTAssertEqual(CVPixelBufferGetWidth(depth.depthDataMap), 768)
        XCTAssertEqual(CVPixelBufferGetHeight(depth.depthDataMap), 576)
        let file = try XCTUnwrap(sample.fileData)
        XCTAssertEqual(String(decoding: file[4..<12], as: UTF8.self), "ftypheic")
        XCTAssertNotNil(file.range(of: Data("urn:mpeg:hevc:2015:auxid:2".utf8)), "the HEIC carries a depth auxiliary image")
        let read = try XCTUnwrap(depthDataFromFile(file))
        XCTAssertEqual(read.depthDataType, kCVPixelFormatType_DisparityFloat16)
        XCTAssertEqual(read.depthDataAccuracy, .relative)
        XCTAssertEqual(CVPixelBufferGetWidth(read.depthDataMap), 768)
    }

    /// The TrueDepth camera: absolute disparity at 640×480.
    func testTrueDepthDeliversAbsoluteDisparity() throws {
        let sample = try shoot(.builtInTrueDepthCamera)
        let depth = try XCTUnwrap(sample.depthData)
        XCTAssertEqual(depth.depthDataType, kCVPixelFormatType_DisparityFloat16)
        XCTAssertEqual(depth.depthDataAccuracy, .absolute)
        XCTAssertEqual(CVPixelBufferGetWidth(depth.depthDataMap), 640)
        XCTAssertEqual(CVPixelBufferGetHeight(depth.depthDataMap), 480)
    }
}
