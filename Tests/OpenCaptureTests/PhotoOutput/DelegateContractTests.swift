import Foundation
import MediaFormats
import Testing
@testable import OpenCapture

@Suite struct DelegateContractTests {
    @Test func singleCaptureFollowsTheDocumentedOrder() async throws {
        let rig = CaptureRig()
        let delegate = RecordingDelegate(output: rig.output)
        let settings = AVCapturePhotoSettings()
        rig.output.capturePhoto(with: settings, delegate: delegate)
        await delegate.waitUntilFinished()

        #expect(delegate.events == [.willBegin, .willCapture, .didCapture, .didFinishProcessing, .didFinishCapture])
        #expect(delegate.onDelegateQueue)
        let first = try #require(delegate.resolvedObjects.first)
        #expect(delegate.resolvedObjects.allSatisfy { $0 === first })
        #expect(first.uniqueID == settings.uniqueID)
        #expect(first.expectedPhotoCount == 1)
        #expect(first.photoDimensions.width == 192 && first.photoDimensions.height == 144)
        #expect(delegate.errors.isEmpty)

        let photo = try #require(delegate.photos.first)
        #expect(photo.photoCount == 1)
        #expect(photo.sequenceCount == 0)
        #expect(photo.bracketSettings == nil)
        #expect(!photo.isRawPhoto)
        #expect(photo.timestamp.isValid && photo.timestamp.seconds > 0)
        #expect(photo.pixelBuffer == nil)
        let data = try #require(photo.fileDataRepresentation())
        #expect(data.prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test func manyCapturesInFlightEachKeepTheirOrder() async throws {
        let rig = CaptureRig()
        let delegates = (0..<6).map { _ in RecordingDelegate(output: rig.output) }
        var ids: [Int64] = []
        for delegate in delegates {
            let settings = AVCapturePhotoSettings()
            ids.append(settings.uniqueID)
            rig.output.capturePhoto(with: settings, delegate: delegate)
        }
        for delegate in delegates { await delegate.waitUntilFinished() }
        #expect(Set(ids).count == ids.count)
        for (delegate, id) in zip(delegates, ids) {
            #expect(delegate.events == [.willBegin, .willCapture, .didCapture, .didFinishProcessing, .didFinishCapture])
            #expect(delegate.resolvedObjects.allSatisfy { $0.uniqueID == id })
            #expect(delegate.photos.count == 1)
        }
        let stamps = delegates.map { $0.photos[0].timestamp.seconds }
        #expect(stamps == stamps.sorted())
    }

    @Test func outputHoldsItsDelegateWeakly() async throws {
        let rig = CaptureRig()
        weak var weakDelegate: RecordingDelegate?
        do {
            let transient = RecordingDelegate(output: rig.output)
            weakDelegate = transient
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: transient)
        }
        #expect(weakDelegate == nil, "the output must not retain its delegate")
        // A later request finishes after the first (one sensor, FIFO), so the first is done by then.
        let keeper = RecordingDelegate(output: rig.output)
        rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: keeper)
        await keeper.waitUntilFinished()
        #expect(keeper.events.count == 5)
    }

    @Test func uniqueIDsAreUniqueAndClonesGetNewOnes() {
        let a = AVCapturePhotoSettings(), b = AVCapturePhotoSettings()
        a.flashMode = .auto
        a.photoQualityPrioritization = .quality
        let c = AVCapturePhotoSettings(from: a)
        #expect(a.uniqueID != b.uniqueID)
        #expect(c.uniqueID != a.uniqueID && c.uniqueID > b.uniqueID)
        #expect(c.flashMode == .auto && c.photoQualityPrioritization == .quality)
        let copy = a.copy() as! AVCapturePhotoSettings
        #expect(copy.uniqueID == a.uniqueID)
    }

    @Test func asyncCaptureReturnsPhotosAndTimeline() async throws {
        let rig = CaptureRig()
        let result = try await rig.capture()
        #expect(result.photos.count == 1)
        #expect(result.events.map(\.kind) == [.willBeginCapture, .willCapturePhoto, .didCapturePhoto,
                                              .didFinishProcessingPhoto(photoCount: 1), .didFinishCapture])
        #expect(result.events.map(\.time) == result.events.map(\.time).sorted())
    }

    @Test func uncompressedFormatDeliversAPixelBuffer() async throws {
        let rig = CaptureRig()
        let photo = try #require(try await rig.capture(bgraSettings()).photos.first)
        let buffer = try #require(photo.pixelBuffer)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        #expect(CVPixelBufferGetWidth(buffer) == 192 && CVPixelBufferGetHeight(buffer) == 144)
        let tiff = try #require(photo.fileDataRepresentation())
        #expect(tiff.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]))
        // The TIFF says what the photo is: EXIF (34665), ICC profile (34675), orientation and resolution.
        let ifd0 = try #require(try TIFFTagReader(tiff).mainDirectories().first)
        #expect(ifd0.contains(34665) && ifd0.contains(34675))
        #expect(ifd0.integer(274) == 1)   // the simulated phone is held in landscape
        #expect(ifd0.real(282) == 72 && ifd0.real(283) == 72 && ifd0.integer(296) == 2)
        #expect(ifd0.string(271) == "OpenCapture")

        let yuv = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange])
        let planar = try #require(try await rig.capture(yuv).photos.first?.pixelBuffer)
        #expect(CVPixelBufferGetPlaneCount(planar) == 2)
        #expect(CVPixelBufferGetWidthOfPlane(planar, 1) == 96)
    }

    @Test func previewIsFittedInsideTheRequestedBox() async throws {
        let rig = CaptureRig(preset: .vga640x480)
        let settings = AVCapturePhotoSettings()
        settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: settings.availablePreviewPhotoPixelFormatTypes.first!,
                                       kCVPixelBufferWidthKey as String: 160, kCVPixelBufferHeightKey as String: 160]
        let result = try await rig.capture(settings)
        #expect(result.resolvedSettings.previewDimensions.width == 160)
        #expect(result.resolvedSettings.previewDimensions.height == 120)
        let preview = try #require(result.photos.first?.previewPixelBuffer)
        #expect(CVPixelBufferGetWidth(preview) == 160 && CVPixelBufferGetHeight(preview) == 120)
    }

    @Test func metadataDescribesTheExposure() async throws {
        let rig = CaptureRig()
        let settings = AVCapturePhotoSettings()
        settings.metadata = [kCGImagePropertyTIFFDictionary as String: [kCGImagePropertyTIFFArtist as String: "Test Artist"]]
        let photo = try #require(try await rig.capture(settings).photos.first)
        let exif = try #require(photo.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
        let tiff = try #require(photo.metadata[kCGImagePropertyTIFFDictionary as String] as? [String: Any])
        #expect((exif[kCGImagePropertyExifExposureTime as String] as? Double ?? 0) > 0)
        #expect(exif[kCGImagePropertyExifFNumber as String] as? Double == 1.8)
        #expect((exif[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])?.first ?? 0 >= 25)
        #expect(photo.metadata[kCGImagePropertyOrientation as String] as? Int == 1)
        // ImageIO's numbers are NSNumbers: they read as any type that holds them, as AVCam reads the orientation.
        #expect(photo.metadata[String(kCGImagePropertyOrientation)] as? UInt32 == 1)
        #expect(tiff[kCGImagePropertyTIFFOrientation as String] as? UInt16 == 1)
        #expect(exif[kCGImagePropertyExifFocalLenIn35mmFilm as String] as? Double == 28)
        #expect(tiff[kCGImagePropertyTIFFArtist as String] as? String == "Test Artist")
        #expect(tiff[kCGImagePropertyTIFFMake as String] as? String == "OpenCapture")
    }

    @Test func fakesCanBeBuiltForTests() {
        let resolved = AVCaptureResolvedPhotoSettings(uniqueID: 42, photoDimensions: CMVideoDimensions(width: 4, height: 3))
        let photo = AVCapturePhoto(timestamp: CMTime(value: 1, timescale: 30), resolvedSettings: resolved,
                                   fileData: Data([1, 2, 3]), metadata: ["Orientation": 1])
        #expect(photo.resolvedSettings.uniqueID == 42)
        #expect(photo.fileDataRepresentation() == Data([1, 2, 3]))
        #expect(photo.photoCount == 1 && photo.sequenceCount == 0)
        #expect(photo.simulationGroundTruth() == nil)
    }
}
