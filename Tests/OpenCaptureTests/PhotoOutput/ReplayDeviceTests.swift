import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCapture

@Suite struct ReplayDeviceTests {
    @Test func replayDeviceDeliversRecordedRawFramesThroughTheAPI() async throws {
        // Record two DNGs with the simulated camera, then replay them as a camera.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = CaptureRig(preset: .cif352x288, lighting: .daylight)
        var recorded: [RawImage] = []
        for index in 0..<2 {
            let photo = try #require(try await recorder.capture(AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB)).photos.first)
            let dng = try #require(photo.fileDataRepresentation())
            try dng.write(to: folder.appendingPathComponent("frame\(index).dng"))
            recorded.append(try RawFileReader.read(dng).raw)
        }
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.txt"))

        let device = try AVCaptureDevice.replayDevice(contentsOf: folder)
        #expect(device.isReplayDevice)
        let format = device.activeFormat
        #expect(CMVideoFormatDescriptionGetDimensions(format.formatDescription).width == 352)
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.sessionPreset = .inputPriority
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        device.exposureMode = .continuousAutoExposure

        var deliveredRaw: [Raster<UInt16>] = []
        for _ in 0..<3 {
            let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB,
                                                  processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            let result = try await output.capturePhotos(with: settings)
            #expect(result.photos.count == 2)
            #expect(result.resolvedSettings.photoDimensions.width == 352 && result.resolvedSettings.photoDimensions.height == 288)
            #expect(result.photos[0].simulationGroundTruth() == nil)
            deliveredRaw.append(try RawFileReader.read(try #require(result.photos[0].fileDataRepresentation())).raw.bayer)
        }
        // The replayed photos' EXIF keeps the recorded scene's brightness (the files' own BrightnessValue: the daylight room
        // was exposed with its window's headroom held back, so its exposure alone says another brightness).
        let recordedBrightness = try (0..<2).map { index -> Double in
            let info = try RawFileReader.read(Data(contentsOf: folder.appendingPathComponent("frame\(index).dng"))).info
            return try #require(info.exif?.brightnessValue)
        }
        let replayed = try await output.capturePhotos(with: AVCapturePhotoSettings())
        let replayedExif = try #require(replayed.photos.first?.metadata["{Exif}"] as? [String: Any])
        let replayedBrightness = try #require(replayedExif["BrightnessValue"] as? Double)
        #expect(recordedBrightness.contains { abs($0 - replayedBrightness) < 1e-6 }, "\(replayedBrightness) vs \(recordedBrightness)")
        // Frames come in file order and cycle.
        #expect(deliveredRaw[0] == recorded[0].bayer)
        #expect(deliveredRaw[1] == recorded[1].bayer)
        #expect(deliveredRaw[2] == recorded[0].bayer)
    }

    @Test func replayNeedsRawFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: AVCaptureDevice.ReplayError.noRawFiles(folder.path)) { try AVCaptureDevice.replayDevice(contentsOf: folder) }
        try Data(repeating: 0x42, count: 100).write(to: folder.appendingPathComponent("bad.cr2"))
        #expect(throws: AVCaptureDevice.ReplayError.self) { try AVCaptureDevice.replayDevice(contentsOf: folder) }
    }
}
