/*
 Camera-device configuration as Apple's samples and articles write it:
 - "Choosing a Capture Device": a DiscoverySession over the back/front cameras, and the microphone found the same way;
 - AVCam's tap to focus and expose, `focus(with:exposureMode:at:monitorSubjectAreaChange:)`, with its
   subject-area-change handler putting focus and exposure back to continuous at the centre;
 - AVCamManual's manual controls: the exposure-duration slider (`setExposureModeCustom` with
   `AVCaptureDevice.currentISO`), the exposure bias, and white balance locked with gains from a temperature and tint,
   from grey world, clamped with its `normalizedGains(_:)`, read back as temperature/tint and chromaticity;
 - zoom clamped to `minAvailableVideoZoomFactor…maxAvailableVideoZoomFactor`, and `ramp(toVideoZoomFactor:withRate:)`;
 - iOS 17's `systemPreferredCamera` / `userPreferredCamera`, as the current AVCam looks its camera up;
 - iOS 17's `AVCaptureDevice.RotationCoordinator` giving the photo connection its horizon-level angle;
 - iOS 17's responsive capture set-up (zero shutter lag, responsive capture, fast capture prioritisation, deferred
   delivery, each enabled only where supported) with a delegate that saves a deferred photo's proxy;
 - iOS 17's `AVCapturePhotoOutputReadinessCoordinator` driving a shutter button's enabled state.
 The controller is Apple's code with the UI (sliders, labels, the preview view) reduced to stored values; the tests
 assert what Apple documents.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation
import XCTest
#if canImport(Photos)
import Photos
#else
import OpenCapturePhotos
#endif

/// One photo's delegate: the photo and the end of the capture, handed to a closure (the output holds delegates weakly;
/// the controller keeps it in `inProgressPhotoCaptureDelegates`).
final class ManualCameraPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate {
    private(set) var photo: AVCapturePhoto?
    private(set) var photoError: Error?
    private let completion: (ManualCameraPhotoDelegate, Error?) -> Void

    init(completion: @escaping (ManualCameraPhotoDelegate, Error?) -> Void) {
        self.completion = completion
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        self.photo = photo
        photoError = error
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        completion(self, error)
    }
}

/// Apple's iOS 17 photo delegate with deferred delivery: a deferred photo arrives as a proxy, saved as a
/// `.photoProxy` resource for Photos to finish; every other photo arrives processed.
final class ResponsiveCaptureDelegate: NSObject, AVCapturePhotoCaptureDelegate {
    private let lock = NSLock()
    private var _photoData: Data?
    private var _proxies = 0
    private var _resolved: [AVCaptureResolvedPhotoSettings] = []
    private let completion: (ResponsiveCaptureDelegate, Error?) -> Void

    init(completion: @escaping (ResponsiveCaptureDelegate, Error?) -> Void) {
        self.completion = completion
    }

    var photoData: Data? { lock.lock(); defer { lock.unlock() }; return _photoData }
    var proxies: Int { lock.lock(); defer { lock.unlock() }; return _proxies }
    var resolved: [AVCaptureResolvedPhotoSettings] { lock.lock(); defer { lock.unlock() }; return _resolved }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        lock.lock(); _resolved.append(resolvedSettings); lock.unlock()
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        if let error = error {
            print("Error capturing photo: \(error)")
            return
        }
        let data = photo.fileDataRepresentation()
        lock.lock(); _photoData = data; lock.unlock()
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: Error?) {
        lock.lock(); _proxies += 1; lock.unlock()
        if let error = error {
            print("Error capturing deferred photo: \(error)")
            return
        }
        guard let photoData = deferredPhotoProxy?.fileDataRepresentation() else { return }
        PHPhotoLibrary.shared().performChanges {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photoProxy, data: photoData, options: nil)
        } completionHandler: { _, error in
            if let error = error { print("Error saving photo proxy: \(error)") }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        completion(self, error)
    }
}

/// The shutter button of Apple's responsive-capture sample: enabled only while the output is ready.
final class ShutterButtonModel: NSObject, AVCapturePhotoOutputReadinessCoordinatorDelegate {
    private let lock = NSLock()
    private var _isEnabled = false
    private var _readinessChanges: [AVCapturePhotoOutput.CaptureReadiness] = []
    private(set) var calledOnMainThread = true
    var onChange: ((AVCapturePhotoOutput.CaptureReadiness) -> Void)?

    var isEnabled: Bool { lock.lock(); defer { lock.unlock() }; return _isEnabled }
    var readinessChanges: [AVCapturePhotoOutput.CaptureReadiness] { lock.lock(); defer { lock.unlock() }; return _readinessChanges }

    func readinessCoordinator(_ coordinator: AVCapturePhotoOutputReadinessCoordinator,
                              captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness) {
        if !Thread.isMainThread { calledOnMainThread = false }
        lock.lock()
        _isEnabled = captureReadiness == .ready
        _readinessChanges.append(captureReadiness)
        lock.unlock()
        onChange?(captureReadiness)
    }
}

final class ManualCameraController {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    let sessionQueue = DispatchQueue(label: "manual camera session queue")
    private(set) var videoDeviceInput: AVCaptureDeviceInput!
    var videoDevice: AVCaptureDevice { videoDeviceInput.device }
    var inProgressPhotoCaptureDelegates = [Int64: ManualCameraPhotoDelegate]()

    // MARK: Choosing a capture device

    let videoDeviceDiscoverySession = AVCaptureDevice.DiscoverySession(
        deviceTypes: [.builtInDualCamera, .builtInWideAngleCamera, .builtInTrueDepthCamera],
        mediaType: .video, position: .unspecified)

    /// "Choosing a Capture Device": the first device in the discovery order at the position, else any.
    func bestDevice(in position: AVCaptureDevice.Position) -> AVCaptureDevice? {
        let devices = videoDeviceDiscoverySession.devices
        guard !devices.isEmpty else { return nil }
        return devices.first(where: { device in device.position == position }) ?? devices.first
    }

    /// The current AVCam's device lookup (iOS 17): the system's preferred camera, else the default video device.
    var defaultCamera: AVCaptureDevice? {
        AVCaptureDevice.systemPreferredCamera ?? AVCaptureDevice.default(for: .video)
    }

    /// The user switched cameras: remember the choice, as AVCam does.
    func userSelected(_ device: AVCaptureDevice) {
        AVCaptureDevice.userPreferredCamera = device
    }

    enum SetupError: Error { case noCamera, cannotAddInput, cannotAddOutput }

    func configureSession(device: AVCaptureDevice, preset: AVCaptureSession.Preset = .vga640x480) throws {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = preset
        let input = try AVCaptureDeviceInput(device: device)
        guard session.canAddInput(input) else { throw SetupError.cannotAddInput }
        session.addInput(input)
        videoDeviceInput = input
        guard session.canAddOutput(photoOutput) else { throw SetupError.cannotAddOutput }
        session.addOutput(photoOutput)
    }

    // MARK: AVCam: tap to focus and expose

    func focus(with focusMode: AVCaptureDevice.FocusMode,
               exposureMode: AVCaptureDevice.ExposureMode,
               at devicePoint: CGPoint,
               monitorSubjectAreaChange: Bool) {
        sessionQueue.async {
            let device = self.videoDeviceInput.device
            do {
                try device.lockForConfiguration()

                /*
                 Setting (focus/exposure)PointOfInterest alone does not initiate a (focus/exposure) operation.
                 Call set(Focus/Exposure)Mode() to apply the new point of interest.
                 */
                if device.isFocusPointOfInterestSupported && device.isFocusModeSupported(focusMode) {
                    device.focusPointOfInterest = devicePoint
                    device.focusMode = focusMode
                }

                if device.isExposurePointOfInterestSupported && device.isExposureModeSupported(exposureMode) {
                    device.exposurePointOfInterest = devicePoint
                    device.exposureMode = exposureMode
                }

                device.isSubjectAreaChangeMonitoringEnabled = monitorSubjectAreaChange
                device.unlockForConfiguration()
            } catch {
                print("Could not lock device for configuration: \(error)")
            }
        }
    }

    private var subjectAreaObserver: NSObjectProtocol?

    func addObservers() {
        subjectAreaObserver = NotificationCenter.default.addObserver(
            forName: .AVCaptureDeviceSubjectAreaDidChange, object: videoDeviceInput.device, queue: nil) { [weak self] _ in
            self?.subjectAreaDidChange()
        }
    }

    func removeObservers() {
        if let subjectAreaObserver { NotificationCenter.default.removeObserver(subjectAreaObserver) }
        subjectAreaObserver = nil
    }

    func subjectAreaDidChange() {
        let devicePoint = CGPoint(x: 0.5, y: 0.5)
        focus(with: .continuousAutoFocus, exposureMode: .continuousAutoExposure, at: devicePoint, monitorSubjectAreaChange: false)
    }

    // MARK: AVCamManual: exposure

    let kExposureDurationPower = 5.0   // Higher numbers will give the slider more sensitivity at shorter durations
    let kExposureMinimumDuration = 1.0 / 1000   // Limit exposure duration to a useful range

    /// The exposure-duration slider (0…1) mapped as AVCamManual maps it; the ISO is left as it is.
    func changeExposureDuration(sliderValue: Double, completionHandler: @escaping (CMTime) -> Void) {
        let p = pow(sliderValue, kExposureDurationPower)   // Apply power function to expand slider's low-end range
        let minDurationSeconds = max(CMTimeGetSeconds(videoDevice.activeFormat.minExposureDuration), kExposureMinimumDuration)
        let maxDurationSeconds = CMTimeGetSeconds(videoDevice.activeFormat.maxExposureDuration)
        let newDurationSeconds = p * (maxDurationSeconds - minDurationSeconds) + minDurationSeconds   // Scale from 0-1 slider range to actual duration
        do {
            try videoDevice.lockForConfiguration()
            videoDevice.setExposureModeCustom(duration: CMTimeMakeWithSeconds(newDurationSeconds, preferredTimescale: 1000 * 1000 * 1000),
                                              iso: AVCaptureDevice.currentISO, completionHandler: completionHandler)
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    func changeISO(_ iso: Float, completionHandler: @escaping (CMTime) -> Void) {
        do {
            try videoDevice.lockForConfiguration()
            videoDevice.setExposureModeCustom(duration: AVCaptureDevice.currentExposureDuration, iso: iso, completionHandler: completionHandler)
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    func changeExposureTargetBias(_ bias: Float, completionHandler: @escaping (CMTime) -> Void) {
        do {
            try videoDevice.lockForConfiguration()
            videoDevice.setExposureTargetBias(bias, completionHandler: completionHandler)
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    // MARK: AVCamManual: white balance

    func changeWhiteBalanceMode(_ mode: AVCaptureDevice.WhiteBalanceMode) {
        do {
            try videoDevice.lockForConfiguration()
            if videoDevice.isWhiteBalanceModeSupported(mode) {
                videoDevice.whiteBalanceMode = mode
            } else {
                print("White balance mode \(mode) is not supported. White balance mode is \(videoDevice.whiteBalanceMode)")
            }
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    func setWhiteBalanceGains(_ gains: AVCaptureDevice.WhiteBalanceGains, completionHandler: ((CMTime) -> Void)? = nil) {
        do {
            try videoDevice.lockForConfiguration()
            let normalizedGains = self.normalizedGains(gains)   // Conversion can yield out-of-bound values, cap to limits
            videoDevice.setWhiteBalanceModeLocked(with: normalizedGains, completionHandler: completionHandler)
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    /// The temperature and tint sliders.
    func changeTemperature(_ temperature: Float, tint: Float, completionHandler: ((CMTime) -> Void)? = nil) {
        let temperatureAndTint = AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: temperature, tint: tint)
        setWhiteBalanceGains(videoDevice.deviceWhiteBalanceGains(for: temperatureAndTint), completionHandler: completionHandler)
    }

    func lockWithGrayWorld(completionHandler: ((CMTime) -> Void)? = nil) {
        setWhiteBalanceGains(videoDevice.grayWorldDeviceWhiteBalanceGains, completionHandler: completionHandler)
    }

    func normalizedGains(_ gains: AVCaptureDevice.WhiteBalanceGains) -> AVCaptureDevice.WhiteBalanceGains {
        var g = gains

        g.redGain = max(1.0, g.redGain)
        g.greenGain = max(1.0, g.greenGain)
        g.blueGain = max(1.0, g.blueGain)

        g.redGain = min(videoDevice.maxWhiteBalanceGain, g.redGain)
        g.greenGain = min(videoDevice.maxWhiteBalanceGain, g.greenGain)
        g.blueGain = min(videoDevice.maxWhiteBalanceGain, g.blueGain)

        return g
    }

    /// What AVCamManual's labels show for the current gains.
    func currentTemperatureAndTint() -> AVCaptureDevice.WhiteBalanceTemperatureAndTintValues {
        videoDevice.temperatureAndTintValues(for: videoDevice.deviceWhiteBalanceGains)
    }

    // MARK: Zoom

    func zoom(to factor: CGFloat) {
        do {
            try videoDevice.lockForConfiguration()
            videoDevice.videoZoomFactor = max(videoDevice.minAvailableVideoZoomFactor,
                                              min(factor, videoDevice.maxAvailableVideoZoomFactor))
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    func rampZoom(to factor: CGFloat, rate: Float) {
        do {
            try videoDevice.lockForConfiguration()
            let target = max(videoDevice.minAvailableVideoZoomFactor, min(factor, videoDevice.maxAvailableVideoZoomFactor))
            videoDevice.ramp(toVideoZoomFactor: target, withRate: rate)
            videoDevice.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    // MARK: Responsive capture (iOS 17)

    /// "Create a more responsive camera experience" (WWDC23): every iOS 17 capture feature the output supports.
    func configureResponsiveCapture() {
        photoOutput.isZeroShutterLagEnabled = photoOutput.isZeroShutterLagSupported
        photoOutput.isResponsiveCaptureEnabled = photoOutput.isResponsiveCaptureSupported
        photoOutput.isFastCapturePrioritizationEnabled = photoOutput.isFastCapturePrioritizationSupported
        photoOutput.isAutoDeferredPhotoDeliveryEnabled = photoOutput.isAutoDeferredPhotoDeliverySupported
    }

    // MARK: Rotation (iOS 17)

    private(set) var rotationCoordinator: AVCaptureDevice.RotationCoordinator!

    func createRotationCoordinator() {
        rotationCoordinator = AVCaptureDevice.RotationCoordinator(device: videoDevice, previewLayer: nil)
    }

    // MARK: Capture

    /// Capture with the connection levelled by the rotation coordinator, as iOS 17 AVCam does.
    func capturePhoto(with photoSettings: AVCapturePhotoSettings,
                      completion: @escaping (AVCapturePhoto?, Error?) -> Void) {
        sessionQueue.async {
            if let photoOutputConnection = self.photoOutput.connection(with: .video), let coordinator = self.rotationCoordinator {
                let angle = coordinator.videoRotationAngleForHorizonLevelCapture
                if photoOutputConnection.isVideoRotationAngleSupported(angle) {
                    photoOutputConnection.videoRotationAngle = angle
                }
            }
            let delegate = ManualCameraPhotoDelegate { delegate, error in
                self.sessionQueue.async {
                    self.inProgressPhotoCaptureDelegates[photoSettings.uniqueID] = nil
                    completion(delegate.photo, error ?? delegate.photoError)
                }
            }
            self.inProgressPhotoCaptureDelegates[photoSettings.uniqueID] = delegate
            self.photoOutput.capturePhoto(with: photoSettings, delegate: delegate)
        }
    }
}

/// Mean red, green and blue of a BGRA photo's central half (8-bit codes).
func centralMeanRGB(_ pixelBuffer: CVPixelBuffer) -> (red: Double, green: Double, blue: Double) {
    CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly) }
    let width = CVPixelBufferGetWidth(pixelBuffer), height = CVPixelBufferGetHeight(pixelBuffer)
    let rowBytes = CVPixelBufferGetBytesPerRow(pixelBuffer)
    guard let base = CVPixelBufferGetBaseAddress(pixelBuffer)?.assumingMemoryBound(to: UInt8.self) else { return (0, 0, 0) }
    var sum = (0.0, 0.0, 0.0), count = 0.0
    for y in (height / 4)..<(3 * height / 4) {
        for x in (width / 4)..<(3 * width / 4) {
            let p = base + y * rowBytes + 4 * x
            sum.0 += Double(p[2]); sum.1 += Double(p[1]); sum.2 += Double(p[0])
            count += 1
        }
    }
    return (sum.0 / count, sum.1 / count, sum.2 / count)
}

final class DeviceConfigurationSampleTests: XCTestCase {
    private var controllers: [ManualCameraController] = []

    override func tearDown() {
        for controller in controllers {
            controller.removeObservers()
            controller.sessionQueue.sync { controller.session.stopRunning() }
        }
        controllers = []
        super.tearDown()
    }

    /// A controller on its own back wide camera (an independent simulated device, so tests do not share its state).
    private func makeController(start: Bool = true) throws -> ManualCameraController {
        let controller = ManualCameraController()
        controllers.append(controller)
        let device = try XCTUnwrap(AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back))
        try controller.configureSession(device: device)
        if start { controller.sessionQueue.sync { controller.session.startRunning() } }
        return controller
    }

    private func capture(_ controller: ManualCameraController, _ settings: AVCapturePhotoSettings,
                         file: StaticString = #filePath, line: UInt = #line) throws -> AVCapturePhoto {
        let done = expectation(description: "photo")
        var result: (AVCapturePhoto?, Error?) = (nil, nil)
        controller.capturePhoto(with: settings) { photo, error in
            result = (photo, error)
            done.fulfill()
        }
        wait(for: [done], timeout: captureTimeout)
        XCTAssertNil(result.1, file: file, line: line)
        return try XCTUnwrap(result.0, file: file, line: line)
    }

    private func bgraSettings() -> AVCapturePhotoSettings {
        AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
    }

    private func exif(_ photo: AVCapturePhoto) -> [String: Any] {
        photo.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any] ?? [:]
    }

    // MARK: Choosing a capture device

    func testDiscoverySessionFindsTheBestCameraAndTheMicrophone() throws {
        let controller = ManualCameraController()
        let devices = controller.videoDeviceDiscoverySession.devices
        XCTAssertFalse(devices.isEmpty)
        XCTAssertTrue(devices.allSatisfy { $0.hasMediaType(.video) })
        // Devices come in the order of the deviceTypes array.
        XCTAssertEqual(devices.first?.deviceType, .builtInDualCamera)
        XCTAssertEqual(controller.bestDevice(in: .back)?.deviceType, .builtInDualCamera)
        XCTAssertEqual(controller.bestDevice(in: .front)?.position, .front)

        // "Capturing audio": the microphone is discovered the same way, with or without the media type.
        let microphones = AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified).devices
        XCTAssertEqual(microphones.count, 1)
        XCTAssertTrue(microphones.first?.hasMediaType(.audio) ?? false)
        XCTAssertTrue(microphones.first === AVCaptureDevice.default(for: .audio))
        XCTAssertEqual(AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: nil, position: .unspecified).devices.count, 1)
        // A camera type asked for audio finds nothing, and the microphone asked for video neither.
        XCTAssertTrue(AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .audio, position: .unspecified).devices.isEmpty)
        XCTAssertTrue(AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .video, position: .unspecified).devices.isEmpty)
    }

    func testSystemPreferredCameraFollowsTheUsersChoice() throws {
        let controller = ManualCameraController()
        let before = AVCaptureDevice.userPreferredCamera
        defer { if let before { AVCaptureDevice.userPreferredCamera = before } }
        let system = try XCTUnwrap(controller.defaultCamera)
        XCTAssertTrue(system.hasMediaType(.video))
        let front = try XCTUnwrap(controller.bestDevice(in: .front))
        controller.userSelected(front)
        XCTAssertTrue(AVCaptureDevice.userPreferredCamera === front)
        XCTAssertTrue(AVCaptureDevice.systemPreferredCamera === front)
        XCTAssertTrue(controller.defaultCamera === front)
        // "Setting the value to nil has no effect."
        AVCaptureDevice.userPreferredCamera = nil
        XCTAssertTrue(AVCaptureDevice.userPreferredCamera === front)
        let back = try XCTUnwrap(controller.bestDevice(in: .back))
        controller.userSelected(back)
        XCTAssertTrue(AVCaptureDevice.systemPreferredCamera === back)
    }

    // MARK: AVCam: tap to focus and expose

    func testTapToFocusAndExposeThenSubjectAreaChangeReturnsToContinuous() throws {
        let controller = try makeController()
        controller.addObservers()
        let point = CGPoint(x: 0.25, y: 0.4)
        controller.focus(with: .autoFocus, exposureMode: .autoExpose, at: point, monitorSubjectAreaChange: true)
        controller.sessionQueue.sync {}
        let device = controller.videoDevice
        XCTAssertEqual(device.focusPointOfInterest, point)
        XCTAssertEqual(device.exposurePointOfInterest, point)
        XCTAssertEqual(device.exposureMode, .autoExpose)
        XCTAssertTrue(device.isSubjectAreaChangeMonitoringEnabled)
        // `.autoFocus` scans once, then the device reports `.locked`.
        let deadline = Date().addingTimeInterval(120)
        while device.focusMode != .locked && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(device.focusMode, .locked)
        XCTAssertGreaterThanOrEqual(device.lensPosition, 0)
        XCTAssertLessThanOrEqual(device.lensPosition, 1)

        // The subject area changes (here: the lights change): AVCam goes back to continuous modes at the centre.
        device.simulatedLighting = .daylight
        controller.sessionQueue.sync {}
        controller.sessionQueue.sync {}
        XCTAssertEqual(device.focusMode, .continuousAutoFocus)
        XCTAssertEqual(device.exposureMode, .continuousAutoExposure)
        XCTAssertEqual(device.focusPointOfInterest, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(device.exposurePointOfInterest, CGPoint(x: 0.5, y: 0.5))
        XCTAssertFalse(device.isSubjectAreaChangeMonitoringEnabled)
    }

    // MARK: AVCamManual: exposure

    func testExposureDurationSliderSetsACustomExposureThePhotoRecords() throws {
        let controller = try makeController()
        let device = controller.videoDevice
        let isoBefore = device.iso
        let applied = expectation(description: "custom exposure applied")
        var syncTime = CMTime.invalid
        controller.sessionQueue.sync {
            controller.changeExposureDuration(sliderValue: 0.5) { time in
                syncTime = time
                applied.fulfill()
            }
        }
        wait(for: [applied], timeout: 30)
        XCTAssertTrue(syncTime.isValid)
        XCTAssertEqual(device.exposureMode, .custom)
        // 0.5⁵ of the way from max(1 ms, min duration) to the format's maximum.
        let minSeconds = max(CMTimeGetSeconds(device.activeFormat.minExposureDuration), 1.0 / 1000)
        let expected = pow(0.5, 5) * (CMTimeGetSeconds(device.activeFormat.maxExposureDuration) - minSeconds) + minSeconds
        XCTAssertEqual(CMTimeGetSeconds(device.exposureDuration), expected, accuracy: expected * 1e-6)
        XCTAssertEqual(device.iso, isoBefore, accuracy: isoBefore * 1e-4, "currentISO keeps the ISO")

        let isoApplied = expectation(description: "ISO applied")
        let newISO = min(device.activeFormat.maxISO, max(device.activeFormat.minISO, 400))
        controller.changeISO(newISO) { _ in isoApplied.fulfill() }
        wait(for: [isoApplied], timeout: 30)
        XCTAssertEqual(device.iso, newISO, accuracy: 0.5)
        XCTAssertEqual(CMTimeGetSeconds(device.exposureDuration), expected, accuracy: expected * 1e-6, "currentExposureDuration keeps it")

        let photo = try capture(controller, AVCapturePhotoSettings())
        let exif = exif(photo)
        XCTAssertEqual(try XCTUnwrap(exif[kCGImagePropertyExifExposureTime as String] as? Double), expected, accuracy: expected * 0.02)
        XCTAssertEqual((exif[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])?.first, Int(newISO.rounded()))
        XCTAssertEqual(exif[kCGImagePropertyExifExposureProgram as String] as? Int, 1, "manual exposure")

        let biasApplied = expectation(description: "bias applied")
        controller.changeExposureTargetBias(-1) { _ in biasApplied.fulfill() }
        wait(for: [biasApplied], timeout: 30)
        XCTAssertEqual(device.exposureTargetBias, -1)
    }

    // MARK: AVCamManual: white balance

    func testWhiteBalanceTemperatureAndTintConversionsRoundTrip() throws {
        let controller = try makeController(start: false)
        let device = controller.videoDevice
        XCTAssertTrue(device.isWhiteBalanceModeSupported(.locked))
        XCTAssertTrue(device.isWhiteBalanceModeSupported(.continuousAutoWhiteBalance))
        XCTAssertTrue(device.isLockingWhiteBalanceWithCustomDeviceGainsSupported)
        XCTAssertEqual(device.whiteBalanceMode, .continuousAutoWhiteBalance)
        XCTAssertGreaterThan(device.maxWhiteBalanceGain, 1)

        for (temperature, tint) in [(3000 as Float, 0 as Float), (5000, 20), (6500, 0), (9000, -30)] {
            let values = AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: temperature, tint: tint)
            let gains = device.deviceWhiteBalanceGains(for: values)
            let back = device.temperatureAndTintValues(for: gains)
            XCTAssertEqual(back.temperature, temperature, accuracy: temperature * 0.01, "\(temperature) K")
            XCTAssertEqual(back.tint, tint, accuracy: 1, "tint at \(temperature) K")
            let chromaticity = device.chromaticityValues(for: gains)
            let again = device.deviceWhiteBalanceGains(for: chromaticity)
            XCTAssertEqual(again.redGain / again.greenGain, gains.redGain / gains.greenGain, accuracy: 1e-3)
            XCTAssertEqual(again.blueGain / again.greenGain, gains.blueGain / gains.greenGain, accuracy: 1e-3)
        }
        // Warmer light needs more blue gain, relative to red, than cooler light.
        let warm = device.deviceWhiteBalanceGains(for: .init(temperature: 3000, tint: 0))
        let cool = device.deviceWhiteBalanceGains(for: .init(temperature: 8000, tint: 0))
        XCTAssertGreaterThan(warm.blueGain / warm.redGain, cool.blueGain / cool.redGain)
        // The auto gains are valid device gains: each within 1…maxWhiteBalanceGain.
        let auto = device.deviceWhiteBalanceGains
        for gain in [auto.redGain, auto.greenGain, auto.blueGain] {
            XCTAssertGreaterThanOrEqual(gain, 1)
            XCTAssertLessThanOrEqual(gain, device.maxWhiteBalanceGain)
        }
        // The simulated room is lit by daylight-white light, which auto white balance finds.
        XCTAssertEqual(controller.currentTemperatureAndTint().temperature, 6500, accuracy: 400)
    }

    func testLockedWhiteBalanceTintsThePhotoAndAutoReturns() throws {
        let controller = try makeController()
        let device = controller.videoDevice
        let auto = centralMeanRGB(try XCTUnwrap(try capture(controller, bgraSettings()).pixelBuffer))
        let autoPhoto = try capture(controller, AVCapturePhotoSettings())
        XCTAssertEqual(exif(autoPhoto)[kCGImagePropertyExifWhiteBalance as String] as? Int, 0, "auto white balance")

        // Balanced for tungsten light (3000 K) in a daylight-white room: the photo turns blue.
        let locked = expectation(description: "white balance locked")
        controller.sessionQueue.sync {
            controller.changeTemperature(3000, tint: 0) { _ in locked.fulfill() }
        }
        wait(for: [locked], timeout: 30)
        XCTAssertEqual(device.whiteBalanceMode, .locked)
        XCTAssertFalse(device.isAdjustingWhiteBalance)
        let expected = controller.normalizedGains(device.deviceWhiteBalanceGains(for: .init(temperature: 3000, tint: 0)))
        XCTAssertEqual(device.deviceWhiteBalanceGains.redGain, expected.redGain, accuracy: 1e-4)
        XCTAssertEqual(device.deviceWhiteBalanceGains.blueGain, expected.blueGain, accuracy: 1e-4)
        let tungsten = centralMeanRGB(try XCTUnwrap(try capture(controller, bgraSettings()).pixelBuffer))
        XCTAssertGreaterThan(tungsten.blue / tungsten.red, 1.3 * auto.blue / auto.red, "auto \(auto), 3000 K \(tungsten)")
        let lockedPhoto = try capture(controller, AVCapturePhotoSettings())
        XCTAssertEqual(exif(lockedPhoto)[kCGImagePropertyExifWhiteBalance as String] as? Int, 1, "manual white balance")

        // Gains outside 1…max are refused by the device, so AVCamManual clamps them first.
        let clamped = controller.normalizedGains(.init(redGain: 0.5, greenGain: 1, blueGain: 100))
        XCTAssertEqual(clamped.redGain, 1)
        XCTAssertEqual(clamped.blueGain, device.maxWhiteBalanceGain)

        // Grey world: the gains that make the scene's average neutral, within the device's range.
        let grey = device.grayWorldDeviceWhiteBalanceGains
        for gain in [grey.redGain, grey.greenGain, grey.blueGain] {
            XCTAssertGreaterThanOrEqual(gain, 1)
            XCTAssertLessThanOrEqual(gain, device.maxWhiteBalanceGain)
        }
        let greyLocked = expectation(description: "grey world locked")
        controller.lockWithGrayWorld { _ in greyLocked.fulfill() }
        wait(for: [greyLocked], timeout: 30)
        XCTAssertEqual(device.deviceWhiteBalanceGains.redGain, controller.normalizedGains(grey).redGain, accuracy: 1e-4)

        // Back to auto: the photo is neutral again.
        controller.changeWhiteBalanceMode(.continuousAutoWhiteBalance)
        XCTAssertEqual(device.whiteBalanceMode, .continuousAutoWhiteBalance)
        let again = centralMeanRGB(try XCTUnwrap(try capture(controller, bgraSettings()).pixelBuffer))
        XCTAssertEqual(again.blue / again.red, auto.blue / auto.red, accuracy: 0.05 * auto.blue / auto.red)
    }

    // MARK: Zoom

    func testZoomStaysWithinTheAvailableRange() throws {
        let controller = try makeController()
        let device = controller.videoDevice
        XCTAssertEqual(device.videoZoomFactor, 1)
        XCTAssertGreaterThanOrEqual(device.minAvailableVideoZoomFactor, 1)
        XCTAssertLessThanOrEqual(device.maxAvailableVideoZoomFactor, device.activeFormat.videoMaxZoomFactor)
        XCTAssertGreaterThanOrEqual(device.activeFormat.videoMaxZoomFactor, 1)

        controller.zoom(to: 2)
        XCTAssertEqual(device.videoZoomFactor, min(2, device.maxAvailableVideoZoomFactor))
        controller.zoom(to: 0.5)
        XCTAssertEqual(device.videoZoomFactor, device.minAvailableVideoZoomFactor)

        controller.rampZoom(to: 1.5, rate: 2)
        let deadline = Date().addingTimeInterval(10)
        while device.isRampingVideoZoom && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertFalse(device.isRampingVideoZoom)
        XCTAssertEqual(device.videoZoomFactor, min(1.5, device.maxAvailableVideoZoomFactor), accuracy: 1e-6)
        try device.lockForConfiguration()
        device.cancelVideoZoomRamp()
        device.unlockForConfiguration()

        // A Bayer RAW capture needs a zoom factor of 1, which the zoom above leaves.
        let photo = try capture(controller, AVCapturePhotoSettings())
        XCTAssertNotNil(photo.fileDataRepresentation())
    }

    // MARK: Rotation coordinator

    func testRotationCoordinatorLevelsThePhotoConnection() throws {
        let controller = try makeController()
        controller.createRotationCoordinator()
        let coordinator = try XCTUnwrap(controller.rotationCoordinator)
        XCTAssertTrue(coordinator.device === controller.videoDevice)
        XCTAssertNil(coordinator.previewLayer)
        let angle = coordinator.videoRotationAngleForHorizonLevelCapture
        XCTAssertTrue([0, 90, 180, 270].contains(angle))
        XCTAssertEqual(coordinator.videoRotationAngleForHorizonLevelPreview, angle)

        let photo = try capture(controller, AVCapturePhotoSettings())
        XCTAssertEqual(controller.photoOutput.connection(with: .video)?.videoRotationAngle, angle)
        // The simulated phone is held level: the levelled photo displays upright.
        XCTAssertEqual(photo.metadata[kCGImagePropertyOrientation as String] as? UInt32, 1)
    }

    // MARK: Responsive capture

    func testResponsiveCaptureConfigurationTakesOnlyWhatTheOutputSupports() throws {
        let controller = try makeController()
        controller.sessionQueue.sync { controller.configureResponsiveCapture() }
        let output = controller.photoOutput
        XCTAssertEqual(output.isZeroShutterLagEnabled, output.isZeroShutterLagSupported)
        XCTAssertEqual(output.isResponsiveCaptureEnabled, output.isResponsiveCaptureSupported)
        XCTAssertEqual(output.isFastCapturePrioritizationEnabled, output.isFastCapturePrioritizationSupported)
        XCTAssertEqual(output.isAutoDeferredPhotoDeliveryEnabled, output.isAutoDeferredPhotoDeliverySupported)

        let settings = AVCapturePhotoSettings()
        settings.photoQualityPrioritization = .balanced
        let done = expectation(description: "capture finished")
        var captureError: Error?
        let delegate = ResponsiveCaptureDelegate { _, error in
            captureError = error
            done.fulfill()
        }
        controller.sessionQueue.sync { output.capturePhoto(with: settings, delegate: delegate) }
        wait(for: [done], timeout: captureTimeout)
        XCTAssertNil(captureError)
        let resolved = try XCTUnwrap(delegate.resolved.first)
        XCTAssertEqual(resolved.uniqueID, settings.uniqueID)
        XCTAssertEqual(resolved.expectedPhotoCount, 1)
        XCTAssertFalse(resolved.isFastCapturePrioritizationEnabled, "one photo on its own is not prioritised for speed")
        if !output.isAutoDeferredPhotoDeliveryEnabled {
            // Without deferred delivery the photo arrives processed and no proxy is made.
            XCTAssertEqual(delegate.proxies, 0)
            XCTAssertEqual(resolved.deferredPhotoProxyDimensions.width, 0)
            XCTAssertEqual(resolved.deferredPhotoProxyDimensions.height, 0)
            XCTAssertGreaterThan(delegate.photoData?.count ?? 0, 0)
        }
        let range = resolved.photoProcessingTimeRange
        XCTAssertLessThanOrEqual(CMTimeGetSeconds(range.start), CMTimeGetSeconds(range.start + range.duration))
    }

    // MARK: Readiness coordinator

    func testReadinessCoordinatorEnablesTheShutterWhileTheOutputIsReady() throws {
        let controller = try makeController(start: false)
        let readinessCoordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: controller.photoOutput)
        let shutterButton = ShutterButtonModel()
        readinessCoordinator.delegate = shutterButton
        XCTAssertTrue(readinessCoordinator.delegate === shutterButton)
        XCTAssertEqual(readinessCoordinator.captureReadiness, .sessionNotRunning)

        let ready = expectation(description: "ready")
        shutterButton.onChange = { if $0 == .ready { ready.fulfill() } }
        controller.sessionQueue.async { controller.session.startRunning() }
        wait(for: [ready], timeout: 60)
        shutterButton.onChange = nil
        XCTAssertTrue(shutterButton.isEnabled)
        XCTAssertEqual(readinessCoordinator.captureReadiness, .ready)
        XCTAssertEqual(controller.photoOutput.captureReadiness, .ready)

        // Track each request from the tap until it has been handed to the output: the shutter is disabled at once and
        // enabled again once the output is ready for the next photo.
        var sawNotReady = false
        let readyAgain = expectation(description: "ready again")
        shutterButton.onChange = { state in
            if state != .ready { sawNotReady = true } else if sawNotReady { readyAgain.fulfill() }
        }
        let settings = AVCapturePhotoSettings()
        readinessCoordinator.startTrackingCaptureRequest(using: settings)
        XCTAssertEqual(readinessCoordinator.captureReadiness, .notReadyMomentarily, "a tracked request disables the shutter at once")
        let done = expectation(description: "photo")
        var delivered: AVCapturePhoto?
        controller.capturePhoto(with: settings) { photo, _ in
            delivered = photo
            done.fulfill()
        }
        controller.sessionQueue.sync {}
        readinessCoordinator.stopTrackingCaptureRequest(using: settings.uniqueID)
        wait(for: [done, readyAgain], timeout: captureTimeout)
        shutterButton.onChange = nil
        XCTAssertNotNil(delivered?.fileDataRepresentation())
        XCTAssertTrue(shutterButton.isEnabled)
        XCTAssertTrue(shutterButton.readinessChanges.contains(.notReadyMomentarily))

        let stopped = expectation(description: "not running")
        shutterButton.onChange = { if $0 == .sessionNotRunning { stopped.fulfill() } }
        controller.sessionQueue.async { controller.session.stopRunning() }
        wait(for: [stopped], timeout: 60)
        XCTAssertFalse(shutterButton.isEnabled)
        XCTAssertEqual(readinessCoordinator.captureReadiness, .sessionNotRunning)
        XCTAssertTrue(shutterButton.calledOnMainThread, "the coordinator calls its delegate on the main queue")
    }
}
