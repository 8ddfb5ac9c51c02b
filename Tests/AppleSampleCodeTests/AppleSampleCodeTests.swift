// Drives Apple's sample code (AVCam's PhotoCaptureProcessor and capturePhoto(), the "Tracking
// Photo Capture Progress" pattern, and app-style invalid settings) end to end against OpenCapture,
// checking the behaviour Apple documents: callback order, counts, IDs, errors, and that the
// delivered files are real JPEG/HEIC/DNG data from the simulated camera.

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif

/// How long a capture may take before a test gives up: a safety net, not a speed check. Generous,
/// because a 12 MP first capture renders the scene, and ThreadSanitizer (scripts/tsan.sh) makes that
/// many times slower on a loaded 2-core machine.
let captureTimeout: TimeInterval = 900
import Foundation
import XCTest
#if canImport(Photos)
import Photos
#else
import OpenCapturePhotos
import OpenCaptureTestSupport
#endif

final class AVCamSampleTests: XCTestCase {
    private var controllers: [AVCamCameraController] = []

    #if !canImport(Photos)
    /// AVCam saves every photo to `PHPhotoLibrary.shared()`: point it at a folder of the test's own.
    static let photoLibraryFolder: URL = {
        let folder = try! ExternalTool.temporaryDirectory()
        PHPhotoLibrary.useSharedLibrary(at: folder.appendingPathComponent("Photos", isDirectory: true))
        return folder
    }()

    override class func setUp() {
        super.setUp()
        _ = photoLibraryFolder
    }
    #endif
    
    override func tearDown() {
        for controller in controllers { controller.sessionQueue.sync { controller.session.stopRunning() } }
        controllers = []
        super.tearDown()
    }
    
    /// AVCam's set-up sequence: configureSession() then startSession(), both on the session queue.
    private func makeAVCam(preset: AVCaptureSession.Preset) -> AVCamCameraController {
        let controller = AVCamCameraController(sessionPreset: preset)
        controllers.append(controller)
        controller.checkAuthorization()
        controller.sessionQueue.async { controller.configureSession() }
        controller.startSession()
        controller.sessionQueue.sync {}
        return controller
    }
    
    func testConfigureSessionFollowsAVCamChoices() {
        let avcam = makeAVCam(preset: .photo)
        avcam.sessionQueue.sync {
            XCTAssertEqual(avcam.setupResult, .success)
            XCTAssertTrue(avcam.isSessionRunning)
            XCTAssertTrue(avcam.session.isRunning)
            XCTAssertEqual(avcam.session.sessionPreset, .photo)
            XCTAssertEqual(avcam.videoDeviceInput.device.deviceType, .builtInDualCamera, "AVCam prefers the back dual camera")
            XCTAssertEqual(avcam.videoDeviceInput.device.position, .back)
            XCTAssertTrue(avcam.session.outputs.contains { $0 === avcam.photoOutput })
            XCTAssertTrue(avcam.photoOutput.isHighResolutionCaptureEnabled)
            XCTAssertEqual(avcam.photoOutput.maxPhotoQualityPrioritization, .quality)
            XCTAssertNotNil(avcam.photoOutput.connection(with: .video))
            XCTAssertTrue(avcam.photoOutput.availablePhotoCodecTypes.contains(.jpeg))
        }
    }
    
    func testCapturePhotoDeliversPhotoDataAndReleasesTheProcessor() {
        let avcam = makeAVCam(preset: .photo)
        let done = expectation(description: "AVCam completion handler")
        let lock = NSLock()
        var animations = 0, spinnerCalls: [Bool] = [], completed: [PhotoCaptureProcessor] = []
        var dictionaryCountAtCompletion = -1
        avcam.onWillCapturePhotoAnimation = { lock.lock(); animations += 1; lock.unlock() }
        avcam.onPhotoProcessing = { lock.lock(); spinnerCalls.append($0); lock.unlock() }
        avcam.onProcessorCompleted = { processor in
            lock.lock(); completed.append(processor); lock.unlock()
            dictionaryCountAtCompletion = avcam.inProgressPhotoCaptureDelegates.count
            done.fulfill()
        }
        avcam.capturePhoto()
        avcam.sessionQueue.sync {
            // The processor is alive only because AVCam's dictionary holds it (the output holds it weakly).
            XCTAssertLessThanOrEqual(avcam.inProgressPhotoCaptureDelegates.count, 1)
        }
        wait(for: [done], timeout: captureTimeout)
        lock.lock(); defer { lock.unlock() }
        XCTAssertEqual(completed.count, 1, "completionHandler runs once (didFinishCaptureFor exactly once)")
        XCTAssertEqual(dictionaryCountAtCompletion, 0, "inProgressPhotoCaptureDelegates empties on completion")
        XCTAssertEqual(animations, 1, "willCapturePhotoAnimation runs once, from willCapturePhotoFor")
        XCTAssertTrue(spinnerCalls.contains(false), "photoProcessingHandler(false) from didFinishProcessingPhoto")
        let processor = completed[0]
        XCTAssertNotNil(processor.photoData, "photoData = photo.fileDataRepresentation()")
        // HEVC is offered, so AVCam asks for it and gets a HEIC file ('ftyp' box, 'heic' brand).
        XCTAssertEqual(processor.photoData.map { String(decoding: $0[4..<12], as: UTF8.self) }, "ftypheic", "HEIC data")
        XCTAssertEqual(processor.requestedPhotoSettings.flashMode, .auto, "dual camera has a flash, so AVCam asks for .auto")
        XCTAssertTrue(processor.requestedPhotoSettings.isHighResolutionPhotoEnabled)
        XCTAssertNotNil(processor.requestedPhotoSettings.previewPhotoFormat)
        XCTAssertEqual(processor.requestedPhotoSettings.photoQualityPrioritization, .balanced)
        // AVCam turns the matte by the photo's EXIF orientation, read `as? UInt32`: the connection is portrait (EXIF 6),
        // so the oriented matte is taller than wide.
        if let matte = processor.orientedPortraitEffectsMatte {
            XCTAssertGreaterThan(CVPixelBufferGetHeight(matte), CVPixelBufferGetWidth(matte), "the matte turned upright")
        }
        avcam.sessionQueue.sync { XCTAssertTrue(avcam.inProgressPhotoCaptureDelegates.isEmpty) }
        // AVCam saved it (completion handler after performChanges): the library holds those very bytes.
        let photos = PHAsset.fetchAssets(with: .image, options: nil).objects(at: IndexSet(0..<PHAsset.fetchAssets(with: .image, options: nil).count))
            .flatMap { PHAssetResource.assetResources(for: $0) }.filter { $0.type == .photo }
        let saved = photos.first { readData($0) == processor.photoData }
        XCTAssertNotNil(saved, "the photo is in PHPhotoLibrary.shared() with its data")
        XCTAssertEqual(saved?.uniformTypeIdentifier, "public.heic", "AVCam passes processedFileType as the type identifier")
    }

    /// AVCam with the microphone takes a Live Photo at the photo preset and saves it as one asset.
    func testAVCamTakesALivePhotoAndSavesStillAndMovieAsOneAsset() throws {
        let avcam = makeAVCam(preset: .photo)
        avcam.sessionQueue.sync {
            XCTAssertEqual(avcam.session.inputs.count, 2, "camera and microphone")
            XCTAssertTrue(avcam.photoOutput.isLivePhotoCaptureEnabled)
        }
        Thread.sleep(forTimeInterval: 2)      // the camera is open a moment before the tap, as in the app
        let done = expectation(description: "AVCam completion handler")
        let lock = NSLock()
        var processors: [PhotoCaptureProcessor] = []
        avcam.onProcessorCompleted = { processor in lock.withLock { processors.append(processor) }; done.fulfill() }
        avcam.capturePhoto()
        wait(for: [done], timeout: captureTimeout)
        let processor = try XCTUnwrap(lock.withLock { processors.first })
        let identifier = try XCTUnwrap(PHAsset.fetchAssets(with: .image, options: nil).objects(at: IndexSet(0..<PHAsset.fetchAssets(with: .image, options: nil).count))
            .first { asset in PHAssetResource.assetResources(for: asset).contains { $0.type == .photo && readData($0) == processor.photoData } }?.localIdentifier)
        let asset = try XCTUnwrap(PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject)
        XCTAssertTrue(asset.mediaSubtypes.contains(.photoLive), "still + paired movie with one content identifier")
        let movie = try XCTUnwrap(PHAssetResource.assetResources(for: asset).first { $0.type == .pairedVideo })
        XCTAssertGreaterThan(readData(movie)?.count ?? 0, 1000)
        avcam.sessionQueue.sync { XCTAssertEqual(avcam.inProgressLivePhotoCapturesCount, 0, "both Live Photo handler calls came") }
    }

    /// AVCam's movie mode: add a movie file output (Live Photo becomes unsupported), record HEVC, save to Photos.
    func testAVCamMovieModeRecordsAndSavesAMovie() throws {
        let avcam = makeAVCam(preset: .photo)
        let movieMode = AVCamMovieRecording(session: avcam.session, photoOutput: avcam.photoOutput, sessionQueue: avcam.sessionQueue)
        movieMode.switchToMovieMode()
        avcam.sessionQueue.sync {
            XCTAssertNotNil(movieMode.movieFileOutput)
            XCTAssertFalse(avcam.photoOutput.isLivePhotoCaptureSupported, "no Live Photo with a movie file output")
            XCTAssertEqual(avcam.session.sessionPreset, .high)
            // No simulated format stabilises video: AVCam's check leaves the preference off, as on such a device.
            let connection = movieMode.movieFileOutput?.connection(with: .video)
            XCTAssertEqual(connection?.isVideoStabilizationSupported, false)
            XCTAssertEqual(connection?.preferredVideoStabilizationMode, .off)
            XCTAssertEqual(connection?.activeVideoStabilizationMode, .off)
        }
        let started = expectation(description: "didStartRecording"), saved = expectation(description: "saved")
        let lock = NSLock()
        var outcome: (URL, Bool)?
        movieMode.onStart = { _ in started.fulfill() }
        movieMode.onSaved = { url, ok in lock.withLock { outcome = (url, ok) }; saved.fulfill() }
        movieMode.toggleMovieRecording()
        wait(for: [started], timeout: captureTimeout)
        Thread.sleep(forTimeInterval: 1)
        movieMode.toggleMovieRecording()
        wait(for: [saved], timeout: captureTimeout)
        let (url, ok) = try XCTUnwrap(lock.withLock { outcome })
        XCTAssertTrue(ok, "the movie was saved to the library")
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "shouldMoveFile moved it into the library")
        XCTAssertGreaterThan(PHAsset.fetchAssets(with: .video, options: nil).count, 0)
        movieMode.switchToPhotoMode()
        avcam.sessionQueue.sync {
            XCTAssertTrue(avcam.photoOutput.isLivePhotoCaptureSupported)
            XCTAssertTrue(avcam.photoOutput.isLivePhotoCaptureEnabled)
        }
    }

    /// A resource's bytes through PHAssetResourceManager, as an app reads them.
    private func readData(_ resource: PHAssetResource) -> Data? {
        final class Received: @unchecked Sendable {
            // `@unchecked Sendable`: `lock` guards `data` and `failed`.
            let lock = NSLock()
            var data = Data(), failed = false
        }
        let done = expectation(description: "requestData")
        let received = Received()
        PHAssetResourceManager.default().requestData(for: resource, options: nil) { chunk in
            received.lock.withLock { received.data.append(chunk) }
        } completionHandler: { error in
            received.lock.withLock { received.failed = error != nil }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return received.lock.withLock { received.failed ? nil : received.data }
    }
    
    func testSeveralAVCamCapturesInFlightEachCompleteOnce() {
        let avcam = makeAVCam(preset: .vga640x480)
        let count = 4
        let done = expectation(description: "all AVCam completions")
        done.expectedFulfillmentCount = count
        let lock = NSLock()
        var completedIDs: [Int64] = []
        var nilData = 0
        avcam.onProcessorCompleted = { processor in
            lock.lock()
            completedIDs.append(processor.requestedPhotoSettings.uniqueID)
            if processor.photoData == nil { nilData += 1 }
            lock.unlock()
            done.fulfill()
        }
        for _ in 0..<count { avcam.capturePhoto() }
        avcam.sessionQueue.sync {
            XCTAssertLessThanOrEqual(avcam.inProgressPhotoCaptureDelegates.count, count)
        }
        wait(for: [done], timeout: captureTimeout)
        lock.lock(); defer { lock.unlock() }
        XCTAssertEqual(completedIDs.count, count)
        XCTAssertEqual(Set(completedIDs).count, count, "each capture has its own uniqueID and processor")
        XCTAssertEqual(nilData, 0)
        avcam.sessionQueue.sync { XCTAssertTrue(avcam.inProgressPhotoCaptureDelegates.isEmpty) }
    }
    
    func testAVCamProcessorGetsTheErrorForRefusedSettingsAndIsReleased() {
        let avcam = makeAVCam(preset: .vga640x480)
        let done = expectation(description: "completion for refused settings")
        var finished: PhotoCaptureProcessor?
        avcam.onProcessorCompleted = { finished = $0; done.fulfill() }
        avcam.sessionQueue.async {
            // Same AVCam pattern, but settings the output must refuse: .quality above the maximum after lowering it.
            avcam.photoOutput.maxPhotoQualityPrioritization = .speed
            let photoSettings = AVCapturePhotoSettings()
            photoSettings.photoQualityPrioritization = .quality
            let processor = PhotoCaptureProcessor(with: photoSettings, willCapturePhotoAnimation: {
                XCTFail("no exposure for refused settings")
            }, livePhotoCaptureHandler: { _ in }, completionHandler: { processor in
                avcam.sessionQueue.async {
                    avcam.inProgressPhotoCaptureDelegates[processor.requestedPhotoSettings.uniqueID] = nil
                    avcam.onProcessorCompleted?(processor)
                }
            }, photoProcessingHandler: { _ in XCTFail("no processing for refused settings") })
            avcam.inProgressPhotoCaptureDelegates[processor.requestedPhotoSettings.uniqueID] = processor
            avcam.photoOutput.capturePhoto(with: photoSettings, delegate: processor)
        }
        wait(for: [done], timeout: captureTimeout)
        XCTAssertNil(finished?.photoData)
        avcam.sessionQueue.sync {
            XCTAssertTrue(avcam.inProgressPhotoCaptureDelegates.isEmpty)
            avcam.photoOutput.maxPhotoQualityPrioritization = .quality
        }
        // The output keeps working: AVCam's own capturePhoto() succeeds afterwards.
        let again = expectation(description: "next capture")
        avcam.onProcessorCompleted = { finished = $0; again.fulfill() }
        avcam.capturePhoto()
        wait(for: [again], timeout: captureTimeout)
        XCTAssertNotNil(finished?.photoData)
    }
}

final class LivePhotoSampleTests: XCTestCase {
    /// WWDC16's Live Photo code: both movie callbacks with a ≈ 3 s duration and the still in the middle.
    func testWWDC16LivePhotoSampleGetsBothMovieCallbacks() throws {
        let sample = LivePhotoCaptureSample()
        try sample.configure()
        XCTAssertTrue(sample.photoOutput.isLivePhotoCaptureEnabled)
        // Test harness, not the sample: a viewfinder output tells when the camera streams, as the screen would.
        let viewfinder = AVCaptureVideoDataOutput()
        let firstFrame = FirstFrame()
        viewfinder.setSampleBufferDelegate(firstFrame, queue: DispatchQueue(label: "viewfinder"))
        sample.session.addOutput(viewfinder)
        sample.session.startRunning()
        defer { sample.session.stopRunning() }
        wait(for: [firstFrame.arrived], timeout: captureTimeout)
        Thread.sleep(forTimeInterval: 1.6)    // the 1.5 s a Live Photo keeps before the shutter
        let done = expectation(description: "didFinishCapture")
        sample.onFinish = { done.fulfill() }
        sample.capture()
        wait(for: [done], timeout: captureTimeout)
        let events = sample.lock.withLock { sample.events }
        XCTAssertEqual(events, ["willBegin(live)", "photo", "didFinishRecordingLivePhotoMovie",
                                "didFinishProcessingLivePhotoToMovieFile", "didFinishCapture"])
        let url = try XCTUnwrap(sample.movieURL)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
        XCTAssertEqual(sample.movieDuration.seconds, 3, accuracy: 0.3)
        XCTAssertEqual(sample.photoDisplayTime.seconds, 1.5, accuracy: 0.2)
    }
}

final class TrackingPhotoCaptureProgressTests: XCTestCase {
    private var cameras: [MultiCaptureCamera] = []
    
    override func tearDown() {
        for camera in cameras { camera.session.stopRunning() }
        cameras = []
        super.tearDown()
    }
    
    private func makeCamera(preset: AVCaptureSession.Preset,
                            deviceType: AVCaptureDevice.DeviceType = .builtInWideAngleCamera,
                            position: AVCaptureDevice.Position = .back) throws -> MultiCaptureCamera {
        let camera = MultiCaptureCamera()
        cameras.append(camera)
        try camera.sessionQueue.sync {
            try camera.configure(preset: preset, deviceType: deviceType, position: position)
            camera.session.startRunning()
        }
        return camera
    }
    
    /// Starts captures on the session queue and waits until all their delegates have finished.
    private func capture(_ settings: [AVCapturePhotoSettings], on camera: MultiCaptureCamera,
                         timeout: TimeInterval = captureTimeout) -> [PhotoCaptureProgressDelegate] {
        let done = expectation(description: "\(settings.count) captures")
        done.expectedFulfillmentCount = settings.count
        camera.onCaptureFinished = { _ in done.fulfill() }
        var delegates: [PhotoCaptureProgressDelegate] = []
        camera.sessionQueue.sync {
            for s in settings { delegates.append(camera.capture(with: s)) }
            // Completions are removed on this queue, so right now every capture is still held.
            XCTAssertEqual(camera.inProgressPhotoCaptureDelegates.count, settings.count, "every in-flight delegate is held by the dictionary")
        }
        wait(for: [done], timeout: timeout)
        camera.sessionQueue.sync { XCTAssertTrue(camera.inProgressPhotoCaptureDelegates.isEmpty, "dictionary empties after completion") }
        return delegates
    }
    
    /// Apple's documented guarantees for one successful request.
    private func assertDocumentedOrder(_ d: PhotoCaptureProgressDelegate, file: StaticString = #filePath, line: UInt = #line) {
        let stages = d.stages
        XCTAssertEqual(stages.first, .willBeginCapture, "willBeginCapture comes first: \(stages)", file: file, line: line)
        XCTAssertEqual(stages.last, .didFinishCapture, "didFinishCapture comes last: \(stages)", file: file, line: line)
        XCTAssertEqual(stages.filter { $0 == .didFinishCapture }.count, 1, "didFinishCapture exactly once", file: file, line: line)
        XCTAssertEqual(stages.filter { $0 == .willBeginCapture }.count, 1, file: file, line: line)
        let willCapture = stages.firstIndex(of: .willCapturePhoto)
        let didCapture = stages.firstIndex(of: .didCapturePhoto)
        let firstProcessed = stages.firstIndex { if case .didFinishProcessingPhoto = $0 { return true } else { return false } }
        XCTAssertNotNil(willCapture, file: file, line: line)
        XCTAssertNotNil(didCapture, file: file, line: line)
        XCTAssertNotNil(firstProcessed, file: file, line: line)
        if let w = willCapture, let c = didCapture, let p = firstProcessed {
            XCTAssertLessThan(w, c, "willCapture before didCapture", file: file, line: line)
            XCTAssertLessThan(c, p, "didCapture before didFinishProcessingPhoto", file: file, line: line)
        }
        let resolved = d.resolvedSettingsSeen
        XCTAssertTrue(resolved.allSatisfy { $0 === resolved[0] }, "same resolved settings object in every callback", file: file, line: line)
        XCTAssertEqual(resolved.first?.uniqueID, d.requestedPhotoSettings.uniqueID, "resolved uniqueID = requested uniqueID", file: file, line: line)
        let processedCount = stages.filter { if case .didFinishProcessingPhoto = $0 { return true } else { return false } }.count
        XCTAssertEqual(processedCount, resolved.first?.expectedPhotoCount, "expectedPhotoCount == didFinishProcessingPhoto calls", file: file, line: line)
        XCTAssertEqual(d.photos.map(\.photoCount), Array(1...max(1, processedCount)), "photoCount is 1-based", file: file, line: line)
        XCTAssertTrue(d.photos.allSatisfy { $0.resolvedSettings === resolved[0] }, file: file, line: line)
        XCTAssertTrue(d.photoErrors.allSatisfy { $0 == nil }, file: file, line: line)
        XCTAssertTrue(d.photos.allSatisfy { $0.fileDataRepresentation() != nil }, "JPEG photos have file data", file: file, line: line)
        XCTAssertNil(d.captureError, file: file, line: line)
    }
    
    func testSeveralCapturesInFlightKeepTheDocumentedOrderAndDistinctIDs() throws {
        let camera = try makeCamera(preset: .vga640x480)
        let settings = (0..<6).map { _ in camera.makeSettings() }
        let delegates = capture(settings, on: camera)
        XCTAssertEqual(delegates.count, 6)
        for d in delegates { assertDocumentedOrder(d) }
        let ids = delegates.compactMap { $0.resolvedSettingsSeen.first?.uniqueID }
        XCTAssertEqual(Set(ids).count, 6, "distinct uniqueIDs")
        XCTAssertEqual(Set(settings.map(\.uniqueID)), Set(ids))
    }
    
    /// Why AVCam keeps inProgressPhotoCaptureDelegates: the output holds its delegate weakly.
    func testOutputHoldsTheDelegateWeakly() throws {
        let camera = try makeCamera(preset: .vga640x480)
        weak var weakDelegate: PhotoCaptureProgressDelegate?
        let finished = expectation(description: "dropped delegate must not finish")
        finished.isInverted = true
        camera.sessionQueue.sync {
            do {
                let delegate = PhotoCaptureProgressDelegate(settings: camera.makeSettings()) { _ in finished.fulfill() }
                weakDelegate = delegate
                camera.photoOutput.capturePhoto(with: delegate.requestedPhotoSettings, delegate: delegate)
            }
        }
        wait(for: [finished], timeout: 3)
        XCTAssertNil(weakDelegate, "the photo output must not keep the delegate alive")
        // The output keeps working with a delegate kept in the dictionary.
        let delegates = capture([camera.makeSettings()], on: camera)
        for d in delegates { assertDocumentedOrder(d) }
    }
    
    func testApplesAutoExposureBracketGivesThreePhotosInOrder() throws {
        let camera = try makeCamera(preset: .low)
        let settings = camera.makeAutoExposureBracket()
        let d = try XCTUnwrap(capture([settings], on: camera).first)
        assertDocumentedOrder(d)
        XCTAssertEqual(d.resolvedSettingsSeen.first?.expectedPhotoCount, 3)
        XCTAssertEqual(d.photos.map(\.sequenceCount), [1, 2, 3])
        for (photo, entry) in zip(d.photos, settings.bracketedSettings) {
            XCTAssertTrue(photo.bracketSettings === entry)
            let bias = (photo.bracketSettings as? AVCaptureAutoExposureBracketedStillImageSettings)?.exposureTargetBias
            XCTAssertEqual((photo.metadata["{Exif}"] as? [String: Any])?["ExposureBiasValue"] as? Double, bias.map(Double.init))
        }
        XCTAssertEqual(d.photos.map(\.lensStabilizationStatus), [.active, .active, .active])
    }

    func testManualExposureBracketUsesTheGivenDurations() throws {
        let camera = try makeCamera(preset: .low)
        let settings = camera.makeManualExposureBracket()
        let d = try XCTUnwrap(capture([settings], on: camera).first)
        assertDocumentedOrder(d)
        let durations = d.photos.compactMap { ($0.metadata["{Exif}"] as? [String: Any])?["ExposureTime"] as? Double }
        XCTAssertEqual(durations.count, 3)
        for (measured, expected) in zip(durations, [1.0 / 500, 1.0 / 250, 1.0 / 125]) { XCTAssertEqual(measured, expected, accuracy: 1e-9) }
        let stamps = d.photos.map { CMTimeGetSeconds($0.timestamp) }
        XCTAssertEqual(stamps, stamps.sorted(), "shots are taken back to back, in order")
    }

    func testApplesRawPlusProcessedSampleGivesTwoPhotos() throws {
        let camera = try makeCamera(preset: .low)
        let d = try XCTUnwrap(capture([camera.makeRawPlusProcessedSettings()], on: camera).first)
        assertDocumentedOrder(d)
        XCTAssertEqual(d.resolvedSettingsSeen.first?.expectedPhotoCount, 2)
        XCTAssertEqual(d.photos.map(\.isRawPhoto), [true, false])
        XCTAssertEqual(d.photos.first?.fileDataRepresentation().map { Array($0.prefix(4)) }, [0x49, 0x49, 0x2A, 0x00], "DNG")
    }

    /// Apple's RAW documentation saves the DNG as the asset's photo and the HEIF as its alternate.
    func testApplesRawSaveMakesOneAssetWithAnAlternate() throws {
        _ = AVCamSampleTests.photoLibraryFolder
        let camera = try makeCamera(preset: .low)
        let delegate = RAWCaptureDelegate()
        let saved = expectation(description: "Photos completion handler")
        let outcome = NSLock()
        var succeeded = false
        delegate.didFinish = { success, _ in outcome.withLock { succeeded = success }; saved.fulfill() }
        let before = PHAsset.fetchAssets(with: .image, options: nil).count
        camera.sessionQueue.sync { camera.photoOutput.capturePhoto(with: camera.makeRawPlusProcessedSettings(), delegate: delegate) }
        wait(for: [saved], timeout: captureTimeout)
        XCTAssertTrue(outcome.withLock { succeeded })
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: false)]
        let assets = PHAsset.fetchAssets(with: .image, options: options)
        XCTAssertEqual(assets.count, before + 1)
        let raws = assets.objects(at: IndexSet(0..<assets.count)).filter { asset in
            PHAssetResource.assetResources(for: asset).map(\.type) == [.photo, .alternatePhoto]
        }
        let asset = try XCTUnwrap(raws.first)
        let resources = PHAssetResource.assetResources(for: asset)
        XCTAssertEqual(resources.map(\.uniformTypeIdentifier), ["com.adobe.raw-image", "public.heic"])
        XCTAssertGreaterThan(asset.pixelWidth, 0)
    }

    func testApplesRawBracketGivesSixPhotos() throws {
        let camera = try makeCamera(preset: .low)
        let d = try XCTUnwrap(capture([camera.makeRawBracket()], on: camera).first)
        assertDocumentedOrder(d)
        XCTAssertEqual(d.resolvedSettingsSeen.first?.expectedPhotoCount, 6)
        XCTAssertEqual(d.photos.filter(\.isRawPhoto).count, 3)
    }

    func testPreviewSampleGives160By120() throws {
        let camera = try makeCamera(preset: .vga640x480)
        let d = try XCTUnwrap(capture([camera.makeSettingsWithPreview()], on: camera).first)
        let preview = try XCTUnwrap(d.photos.first?.previewPixelBuffer)
        XCTAssertEqual(CVPixelBufferGetWidth(preview), 160)
        XCTAssertEqual(CVPixelBufferGetHeight(preview), 120)
        XCTAssertEqual(d.resolvedSettingsSeen.first?.previewDimensions.width, 160)
        XCTAssertEqual(d.resolvedSettingsSeen.first?.previewDimensions.height, 120)
    }

    func testLowPresetVariantAlsoWorks() throws {
        let camera = try makeCamera(preset: .low)
        let delegates = capture((0..<3).map { _ in camera.makeSettings() }, on: camera)
        for d in delegates { assertDocumentedOrder(d) }
    }
    
    func testPhotoPresetDeliversTwelveMegapixels() throws {
        let camera = try makeCamera(preset: .photo, deviceType: .builtInDualCamera)
        camera.sessionQueue.sync { camera.photoOutput.isHighResolutionCaptureEnabled = true }
        // iOS 16+ way (maxPhotoDimensions) and the iOS 13–15 AVCam way (isHighResolutionPhotoEnabled).
        let modern = camera.makeSettings()
        let legacy = AVCapturePhotoSettings()
        legacy.isHighResolutionPhotoEnabled = true
        let delegates = capture([modern, legacy], on: camera)
        for d in delegates {
            assertDocumentedOrder(d)
            let dims = d.resolvedSettingsSeen.first?.photoDimensions
            XCTAssertEqual(dims?.width, 4032)
            XCTAssertEqual(dims?.height, 3024)
        }
        XCTAssertEqual(camera.photoOutput.maxPhotoDimensions.width, 4032)
        XCTAssertEqual(camera.photoOutput.maxPhotoDimensions.height, 3024)
    }
}

final class InvalidPhotoSettingsTests: XCTestCase {
    private var cameras: [MultiCaptureCamera] = []
    
    override func tearDown() {
        for camera in cameras { camera.session.stopRunning() }
        cameras = []
        super.tearDown()
    }
    
    private func makeCamera(deviceType: AVCaptureDevice.DeviceType = .builtInWideAngleCamera,
                            position: AVCaptureDevice.Position = .back) throws -> MultiCaptureCamera {
        let camera = MultiCaptureCamera()
        cameras.append(camera)
        try camera.sessionQueue.sync {
            try camera.configure(preset: .vga640x480, deviceType: deviceType, position: position)
            camera.session.startRunning()
        }
        return camera
    }
    
    private func run(_ settings: AVCapturePhotoSettings, on camera: MultiCaptureCamera) -> PhotoCaptureProgressDelegate {
        let done = expectation(description: "capture \(settings.uniqueID)")
        camera.onCaptureFinished = { _ in done.fulfill() }
        let delegate = camera.sessionQueue.sync { camera.capture(with: settings) }
        wait(for: [done], timeout: captureTimeout)
        camera.sessionQueue.sync { XCTAssertTrue(camera.inProgressPhotoCaptureDelegates.isEmpty) }
        return delegate
    }
    
    /// A refused request: validate throws, the delegate gets only didFinishCaptureFor with that error,
    /// nothing is exposed or delivered, and a correct capture afterwards succeeds.
    private func assertRefused(_ settings: AVCapturePhotoSettings, on camera: MultiCaptureCamera,
                               expected: PhotoSettingsError, mentioning phrase: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let checked = InvalidPhotoSettingsSamples.canCapture(settings, with: camera.photoOutput)
        XCTAssertEqual(checked as? PhotoSettingsError, expected, file: file, line: line)
        let d = run(settings, on: camera)
        XCTAssertEqual(d.stages, [.didFinishCapture], "only didFinishCaptureFor for refused settings", file: file, line: line)
        XCTAssertEqual(d.captureError as? PhotoSettingsError, expected, file: file, line: line)
        XCTAssertEqual(d.resolvedSettingsSeen.first?.uniqueID, settings.uniqueID, file: file, line: line)
        XCTAssertTrue(d.photos.isEmpty, file: file, line: line)
        let message = String(describing: d.captureError.map { $0 as Any } ?? "")
        XCTAssertTrue(message.localizedCaseInsensitiveContains(phrase), "clear error: \(message)", file: file, line: line)
        // The output keeps working.
        let ok = run(camera.makeSettings(), on: camera)
        XCTAssertEqual(ok.stages.first, .willBeginCapture, file: file, line: line)
        XCTAssertEqual(ok.stages.last, .didFinishCapture, file: file, line: line)
        XCTAssertNil(ok.captureError, file: file, line: line)
        XCTAssertEqual(ok.photos.count, ok.resolvedSettingsSeen.first?.expectedPhotoCount, file: file, line: line)
    }
    
    func testReusedSettingsAreRefusedAndACloneWorks() throws {
        let camera = try makeCamera()
        let settings = camera.makeSettings()
        let first = run(settings, on: camera)
        XCTAssertNil(first.captureError)
        let reused = InvalidPhotoSettingsSamples.reusedSettings(firstShot: settings)
        assertRefused(reused, on: camera, expected: .settingsReused(uniqueID: settings.uniqueID), mentioning: "re-used")
        let clone = AVCapturePhotoSettings(from: settings)
        XCTAssertNotEqual(clone.uniqueID, settings.uniqueID)
        XCTAssertEqual(clone.maxPhotoDimensions.width, settings.maxPhotoDimensions.width)
        XCTAssertNil(InvalidPhotoSettingsSamples.canCapture(clone, with: camera.photoOutput))
        XCTAssertNil(run(clone, on: camera).captureError)
    }
    
    func testCodecAndPixelFormatTogetherAreRefused() throws {
        let camera = try makeCamera()
        assertRefused(InvalidPhotoSettingsSamples.codecAndPixelFormat(), on: camera,
                      expected: .formatNeedsExactlyOneOfCodecOrPixelFormat, mentioning: "exactly one")
    }
    
    func testHEVCWithoutCheckingIsRefusedWhenUnavailable() throws {
        let camera = try makeCamera()
        try XCTSkipIf(camera.photoOutput.availablePhotoCodecTypes.contains(.hevc), "HEVC is available")
        assertRefused(InvalidPhotoSettingsSamples.hevcWithoutChecking(), on: camera,
                      expected: .unsupportedCodec(AVVideoCodecType.hevc.rawValue), mentioning: "availablePhotoCodecTypes")
    }
    
    func testFlashOnFrontTrueDepthCamera() throws {
        let camera = try makeCamera(deviceType: .builtInTrueDepthCamera, position: .front)
        XCTAssertEqual(camera.videoDeviceInput?.device.position, .front)
        let supported = camera.photoOutput.supportedFlashModes
        XCTAssertEqual(supported.contains(.on), camera.videoDeviceInput?.device.isFlashAvailable ?? false)
        try XCTSkipIf(supported.contains(.on), "this simulated front camera has a flash")
        assertRefused(InvalidPhotoSettingsSamples.flashOn(), on: camera,
                      expected: .unsupportedFlashMode(.on), mentioning: "supportedFlashModes")
    }
    
    func testQualityAboveTheOutputMaximumIsRefused() throws {
        let camera = try makeCamera()
        camera.sessionQueue.sync { camera.photoOutput.maxPhotoQualityPrioritization = .balanced }
        assertRefused(InvalidPhotoSettingsSamples.qualityAboveMaximum(), on: camera,
                      expected: .qualityPrioritizationAboveMaximum, mentioning: "maxPhotoQualityPrioritization")
    }
    
    func testHighResolutionWithoutEnablingItOnTheOutputIsRefused() throws {
        let camera = try makeCamera()
        XCTAssertFalse(camera.photoOutput.isHighResolutionCaptureEnabled)
        assertRefused(InvalidPhotoSettingsSamples.highResolutionNotEnabled(), on: camera,
                      expected: .highResolutionCaptureNotEnabled, mentioning: "highResolutionCaptureEnabled")
    }
}

/// Fulfils `arrived` at the first viewfinder frame.
final class FirstFrame: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `seen`.
    let arrived = XCTestExpectation(description: "first frame")
    private let lock = NSLock()
    private var seen = false
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if lock.withLock({ defer { seen = true }; return !seen }) { arrived.fulfill() }
    }
}
