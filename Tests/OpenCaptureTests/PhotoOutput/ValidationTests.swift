import Foundation
import MediaFormats
import Testing
@testable import OpenCapture

@Suite struct ValidationTests {
    /// Captures with settings that must be refused: only didFinishCapture arrives, with the error.
    func expectRefused(_ rig: CaptureRig, _ settings: AVCapturePhotoSettings, _ expected: PhotoSettingsError,
                       sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(throws: expected, sourceLocation: sourceLocation) { try rig.output.validate(settings) }
        let delegate = RecordingDelegate(output: rig.output)
        rig.output.capturePhoto(with: settings, delegate: delegate)
        await delegate.waitUntilFinished()
        #expect(delegate.events == [.didFinishCapture], sourceLocation: sourceLocation)
        #expect(delegate.errors.first as? PhotoSettingsError == expected, sourceLocation: sourceLocation)
        #expect(delegate.resolvedObjects.first?.uniqueID == settings.uniqueID, sourceLocation: sourceLocation)
        #expect(delegate.resolvedObjects.first?.expectedPhotoCount == 0, sourceLocation: sourceLocation)
    }

    @Test func reusedSettingsAreRefusedAndTheOutputKeepsWorking() async throws {
        let rig = CaptureRig()
        let settings = AVCapturePhotoSettings()
        _ = try await rig.capture(settings)
        await expectRefused(rig, settings, .settingsReused(uniqueID: settings.uniqueID))
        let again = try await rig.capture(AVCapturePhotoSettings(from: settings))
        #expect(again.photos.count == 1)
    }

    @Test func formatRules() async {
        let rig = CaptureRig()
        await expectRefused(rig, AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg,
                                                                 kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]),
                            .formatNeedsExactlyOneOfCodecOrPixelFormat)
        await expectRefused(rig, AVCapturePhotoSettings(format: [AVVideoWidthKey: 10]), .formatNeedsExactlyOneOfCodecOrPixelFormat)
        await expectRefused(rig, AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.proRes422]),
                            .unsupportedCodec("apcn"))
        await expectRefused(rig, AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_DepthFloat32]),
                            .unsupportedPixelFormat(kCVPixelFormatType_DepthFloat32))
        await expectRefused(rig, AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg,
                                                                 AVVideoCompressionPropertiesKey: [AVVideoQualityKey: 1.5]]),
                            .invalidQuality(1.5))
        await expectRefused(rig, AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg,
                                                                 AVVideoCompressionPropertiesKey: ["AVVideoAverageBitRateKey": 1]]),
                            .unsupportedFormatKey("AVVideoAverageBitRateKey"))
        await expectRefused(rig, AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_BGGR),
                            .unsupportedRawPixelFormat(kCVPixelFormatType_14Bayer_BGGR))
        await expectRefused(rig, AVCapturePhotoSettings(rawPixelFormatType: 0, rawFileType: nil,
                                                        processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                                        processedFileType: .heic),
                            .unsupportedFileType(AVFileType.heic.rawValue))
    }

    @Test func outputAndDeviceRules() async throws {
        let rig = CaptureRig()
        let quality = AVCapturePhotoSettings()
        quality.photoQualityPrioritization = .quality
        await expectRefused(rig, quality, .qualityPrioritizationAboveMaximum)
        rig.output.maxPhotoQualityPrioritization = .quality
        #expect(throws: Never.self) { try rig.output.validate(AVCapturePhotoSettings(from: quality)) }

        let highRes = AVCapturePhotoSettings()
        highRes.isHighResolutionPhotoEnabled = true
        await expectRefused(rig, highRes, .highResolutionCaptureNotEnabled)

        // maxPhotoDimensions must be one of the format's sizes (0×0: the output's); the photo is never larger.
        let sizes = rig.device.activeFormat.supportedMaxPhotoDimensions
        #expect(sizes.count == 2 && sizes[1].width == 4032 && rig.output.maxPhotoDimensions.width == sizes[0].width)
        let big = AVCapturePhotoSettings()
        big.maxPhotoDimensions = CMVideoDimensions(width: 4032, height: 3024)
        await expectRefused(rig, big, .photoDimensionsAboveMaximum(width: 4032, height: 3024))
        for (width, height) in [(1000, 1000), (-1, -1), (0, 5)] as [(Int32, Int32)] {
            let odd = AVCapturePhotoSettings()
            odd.maxPhotoDimensions = CMVideoDimensions(width: width, height: height)
            await expectRefused(rig, odd, .unsupportedPhotoDimensions(width: width, height: height))
        }
        let supported = sizes[0]
        let exact = AVCapturePhotoSettings()
        exact.maxPhotoDimensions = supported
        let photo = try #require(try await rig.capture(exact).photos.first)
        let size = try JPEGDecoder.size(of: try #require(photo.fileDataRepresentation()))
        #expect(size.width == Int(supported.width) && size.height == Int(supported.height))
        // The output's own maximum takes only a supported size, and says which property was wrong.
        rig.output.maxPhotoDimensions = CMVideoDimensions(width: 123, height: 45)
        #expect(rig.output.maxPhotoDimensions.width == supported.width)

        let depth = AVCapturePhotoSettings()
        depth.isDepthDataDeliveryEnabled = true
        await expectRefused(rig, depth, .featureNotEnabled("Depth data delivery"))

        let live = AVCapturePhotoSettings()
        live.livePhotoMovieFileURL = URL(fileURLWithPath: "/tmp/live.mov")
        await expectRefused(rig, live, .featureNotEnabled("Live Photo capture"))

        let metadata = AVCapturePhotoSettings()
        metadata.metadata = ["NotAnImageIOKey": 1]
        await expectRefused(rig, metadata, .invalidMetadataKey("NotAnImageIOKey"))

        // Values a photo cannot carry as given are refused, not dropped.
        let notADictionary = AVCapturePhotoSettings()
        notADictionary.metadata = [kCGImagePropertyExifDictionary: "hello"]
        await expectRefused(rig, notADictionary, .invalidMetadataValue("{Exif} is not a dictionary"))
        let orientation = AVCapturePhotoSettings()
        orientation.metadata = [kCGImagePropertyOrientation: 99]
        await expectRefused(rig, orientation, .invalidMetadataValue("Orientation 99 is not 1…8"))
        let noLongitude = AVCapturePhotoSettings()
        noLongitude.metadata = [kCGImagePropertyGPSDictionary: [kCGImagePropertyGPSLatitude: 12.5]]
        await expectRefused(rig, noLongitude, .invalidMetadataValue("{GPS} has no Longitude"))
        let farNorth = AVCapturePhotoSettings()
        farNorth.metadata = [kCGImagePropertyGPSDictionary: [kCGImagePropertyGPSLatitude: 91, kCGImagePropertyGPSLongitude: 0]]
        await expectRefused(rig, farNorth, .invalidMetadataValue("{GPS} Latitude 91.0 is outside ±90°"))
        let badReference = AVCapturePhotoSettings()
        badReference.metadata = [kCGImagePropertyGPSDictionary: [kCGImagePropertyGPSLatitude: 1, kCGImagePropertyGPSLatitudeRef: "X",
                                                                 kCGImagePropertyGPSLongitude: 2]]
        await expectRefused(rig, badReference, .invalidMetadataValue("{GPS} LatitudeRef X is not one of N, S"))
        let long = AVCapturePhotoSettings()
        long.metadata = [kCGImagePropertyExifDictionary: [kCGImagePropertyExifUserComment: String(repeating: "é", count: 20_000)]]
        await expectRefused(rig, long, .invalidMetadataValue("its text fields take 40008 bytes of EXIF, more than 32766"))
        let badDay = AVCapturePhotoSettings()
        badDay.metadata = [kCGImagePropertyGPSDictionary: [kCGImagePropertyGPSLatitude: 1, kCGImagePropertyGPSLongitude: 2,
                                                           kCGImagePropertyGPSDateStamp: "yesterday"]]
        await expectRefused(rig, badDay, .invalidMetadataValue(
            "{GPS} DateStamp yesterday with TimeStamp 00:00:00 is no time (\"yyyy:MM:dd\", \"HH:mm:ss.SS\")"))

        let preview = AVCapturePhotoSettings()
        preview.previewPhotoFormat = [kCVPixelBufferWidthKey as String: 100]
        await expectRefused(rig, preview, .invalidPreviewFormat("kCVPixelBufferPixelFormatTypeKey is required"))

        let thumbnail = AVCapturePhotoSettings()
        thumbnail.embeddedThumbnailPhotoFormat = [AVVideoWidthKey: 100]
        await expectRefused(rig, thumbnail, .invalidThumbnailFormat("AVVideoCodecKey is required"))

        // After all of that the output still captures.
        let result = try? await rig.capture()
        #expect(result?.photos.count == 1)
    }

    @Test func flashModeMustBeSupported() async {
        let front = CaptureRig(.builtInTrueDepthCamera, position: .front)
        #expect(front.output.supportedFlashModes == [.off])
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .on
        await expectRefused(front, settings, .unsupportedFlashMode(.on))
        let back = CaptureRig()
        #expect(back.output.supportedFlashModes == [.off, .on, .auto])
    }

    @Test func captureNeedsARunningSessionWithACamera() async {
        let output = AVCapturePhotoOutput()
        #expect(throws: PhotoSettingsError.noActiveVideoConnection) { try output.validate(AVCapturePhotoSettings()) }
        // What an app's alert shows is the reason, not "The operation could not be completed".
        let failure: Error = PhotoSettingsError.noActiveVideoConnection
        #expect(failure.localizedDescription == PhotoSettingsError.noActiveVideoConnection.description)
        #expect(output.availablePhotoCodecTypes.isEmpty)
        #expect(output.maxBracketedCapturePhotoCount == 0)
        let rig = CaptureRig()
        rig.session.stopRunning()
        await expectRefused(rig, AVCapturePhotoSettings(), .noActiveVideoConnection)
    }
}
