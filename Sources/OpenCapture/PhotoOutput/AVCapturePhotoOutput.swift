import CameraSimulation
import CaptureCore
import CaptureEngine
import Foundation
import MediaFormats

/// Captures still photos (Apple's `AVCapturePhotoOutput`). Requests may overlap: each keeps its
/// own callback order, and all callbacks arrive on one serial queue owned by the output.
///
/// Difference from Apple: invalid settings never raise. `validate(_:)` throws a
/// `PhotoSettingsError`, and `capturePhoto(with:delegate:)` with such settings captures nothing
/// and calls only `photoOutput(_:didFinishCaptureFor:error:)` with that error.
///
/// `@unchecked Sendable`: `lock` guards every mutable field (used IDs, request counter, size and
/// quality limits, scene-monitoring settings, prepared settings, the pending preparation, the
/// depth and matte delivery flags and the last warm-up).
public final class AVCapturePhotoOutput: AVCaptureOutput, @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var usedIDs = Set<Int64>()
    private var requestCounter: UInt64 = 0
    private var _highResolution = false
    private var _maxDimensions = CMVideoDimensions(width: 0, height: 0)
    private var _maxQuality: QualityPrioritization = .balanced
    private var _sceneMonitoring: AVCapturePhotoSettings?
    private var _prepared: [AVCapturePhotoSettings] = []
    private var pendingPreparation: PreparationHandler?
    private var preparationGeneration = 0
    /// What the running session last warmed up for (device, photo size, depth).
    private var warmedUp: WarmUp?
    /// Warm-ups in flight (entered before each starts, left when it ends).
    private let warmUps = DispatchGroup()
    private struct WarmUp: Equatable {
        var device: ObjectIdentifier
        var size: Size
        var depth: Bool
    }
    /// What `isDepthDataDeliveryEnabled` / `isPortraitEffectsMatteDeliveryEnabled` were set to (read through `withOutputLock`).
    var depthDeliveryRequested = false
    var matteDeliveryRequested = false
    /// Live Photo state (read and written through `withOutputLock`): what `isLivePhotoCaptureEnabled` was set to,
    /// the suspension and when it began on the session clock, and the auto-trimming flag.
    var livePhotoRequested = false
    var livePhotoSuspended = false
    var livePhotoSuspensionTime: Double?
    var livePhotoAutoTrimming = true
    /// What `isZeroShutterLagEnabled` was set to (default on, as for apps built with the iOS 17 SDK).
    var zeroShutterLagRequested = true
    /// The requests in hand, for `captureReadiness` (read and written through `withOutputLock`).
    var readiness = PhotoOutputReadiness()
    /// Called (on a global queue) after `readiness` changes: the readiness coordinators of this output, by identity.
    var readinessListeners: [ObjectIdentifier: @Sendable () -> Void] = [:]

    /// The serial queue every delegate callback runs on.
    let delegateQueue = DispatchQueue(label: "OpenCapture.AVCapturePhotoOutput.delegate")
    /// Set on `delegateQueue`, so tests can check where callbacks run.
    let delegateQueueKey = DispatchSpecificKey<Bool>()
    /// Runs exposures and processing; created with the output, so concurrent first captures share it.
    private let engine = CaptureEngine(label: "OpenCapture.AVCapturePhotoOutput")

    public override init() {
        super.init()
        delegateQueue.setSpecific(key: delegateQueueKey, value: true)
    }

    // MARK: Capture

    /// Starts a capture. The settings are copied and validated, and everything the capture depends
    /// on (the device's exposure, bias, lighting and seed, orientation, colour space, the date) is
    /// read now: changes made after this call belong to later requests. The delegate is held weakly.
    public func capturePhoto(with settings: AVCapturePhotoSettings, delegate: AVCapturePhotoCaptureDelegate) {
        let snapshot = settings.copy() as! AVCapturePhotoSettings
        let device = currentDevice
        let adapter = PhotoDeliveryAdapter(output: self, delegate: delegate, settings: snapshot,
                                           deviceType: device?.deviceType ?? .builtInWideAngleCamera)
        lock.lock()
        defer { lock.unlock() }
        do {
            let parsed = try PhotoSettingsRules.validate(snapshot, in: ruleContext(device: device))
            guard let device, let session, let connection = connections.first else { throw PhotoSettingsError.noActiveVideoConnection }
            usedIDs.insert(snapshot.uniqueID)
            requestCounter += 1
            var request = makeRequest(snapshot, parsed: parsed, device: device, session: session, connection: connection)
            if let stream = session.frameStream, stream.isRunning, let start = stream.startTime {
                request.liveTiming = LiveTiming(callTime: stream.now, zeroShutterLag: isZeroShutterLagEnabled, streamStart: start,
                                                frameInterval: stream.configuration.frameInterval)
            }
            if let url = snapshot.livePhotoMovieFileURL {
                guard let stream = session.frameStream, stream.isRunning else { throw PhotoSettingsError.livePhotoStreamNotRunning }
                request.livePhoto = LivePhotoDelivery(
                    url: url, codec: snapshot.livePhotoVideoCodecType == .hevc ? .hevc : .h264,
                    contentIdentifier: UUID().uuidString,
                    metadata: Self.livePhotoMovieMetadata(date: request.captureDate,
                                                          offsetSeconds: request.timeZoneOffsetSeconds,
                                                          items: snapshot.livePhotoMovieMetadata),
                    stream: stream, stillTime: stream.now,
                    sound: session.hasMicrophone ? RoomSound(seed: stream.configuration.device.seed) : nil,
                    suspension: { [weak self] in self?.withOutputLock { self?.livePhotoSuspensionTime } ?? nil })
                request.livePhoto?.autoTrims = livePhotoAutoTrimming
                request.livePhoto?.rotation = Int(connection.videoRotationAngle)
                request.livePhoto?.mirrored = connection.isVideoMirrored
                request.livePhoto?.creationDate = request.captureDate
            }
            // Submitted under the lock, so requests reach the sensor in call order from any thread.
            updateReadiness { $0.submitted(snapshot.uniqueID) }
            engine.submit(request, events: adapter.handle)
        } catch {
            adapter.refuse(error)
        }
    }

    /// OpenCapture addition: checks settings against every rule `capturePhoto` applies (Apple raises
    /// NSInvalidArgumentException for these) and throws the first broken one.
    public func validate(_ settings: AVCapturePhotoSettings) throws {
        let device = currentDevice
        lock.lock(); defer { lock.unlock() }
        _ = try PhotoSettingsRules.validate(settings, in: ruleContext(device: device))
    }

    // MARK: Formats

    /// Uncompressed formats a photo can be delivered in (empty until the output is in a session with a camera).
    public var availablePhotoPixelFormatTypes: [OSType] {
        guard currentDevice != nil else { return [] }
        return [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
                kCVPixelFormatType_32BGRA]
    }

    /// Codecs a photo can be compressed with: HEVC (HEIC files) first, as on iPhones, then JPEG.
    public var availablePhotoCodecTypes: [AVVideoCodecType] {
        currentDevice == nil ? [] : [.hevc, .jpeg]
    }

    /// File types for processed photos: HEIC for HEVC, JPEG, TIFF for uncompressed formats.
    public var availablePhotoFileTypes: [AVFileType] {
        currentDevice == nil ? [] : [.heic, .jpg, .tif]
    }

    /// Bayer RAW formats: the 14-bit format matching the camera's colour filter array.
    public var availableRawPhotoPixelFormatTypes: [OSType] {
        guard let device = currentDevice else { return [] }
        return [device.module.cfa.bayer14FourCC.rawValue]
    }

    /// File types for RAW photos: DNG.
    public var availableRawPhotoFileTypes: [AVFileType] { currentDevice == nil ? [] : [.dng] }

    public func supportedPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] {
        fileType == .tif ? availablePhotoPixelFormatTypes : []
    }

    public func supportedPhotoCodecTypes(for fileType: AVFileType) -> [AVVideoCodecType] {
        guard currentDevice != nil else { return [] }
        switch fileType {
        case .heic, .heif: return [.hevc]
        case .jpg: return [.jpeg]
        default: return []
        }
    }

    public func supportedRawPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] {
        fileType == .dng ? availableRawPhotoPixelFormatTypes : []
    }

    public class func isBayerRAWPixelFormat(_ pixelFormat: OSType) -> Bool {
        [kCVPixelFormatType_14Bayer_RGGB, kCVPixelFormatType_14Bayer_GRBG, kCVPixelFormatType_14Bayer_GBRG,
         kCVPixelFormatType_14Bayer_BGGR].contains(pixelFormat)
    }

    public class func isAppleProRAWPixelFormat(_ pixelFormat: OSType) -> Bool { false }

    /// Apple ProRAW is not simulated: never supported.
    public var isAppleProRAWSupported: Bool { false }
    /// Stays false (ProRAW is not simulated); enabling it is reported to `DeviceDiagnostics`.
    public var isAppleProRAWEnabled: Bool {
        get { false }
        set { if newValue { DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled("Apple ProRAW")) } }
    }

    // MARK: Size and quality

    /// Deprecated in iOS 16: allow `isHighResolutionPhotoEnabled` in settings.
    public var isHighResolutionCaptureEnabled: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _highResolution }
        set { lock.lock(); _highResolution = newValue; lock.unlock() }
    }

    /// Largest photo size settings may ask for; one of `activeFormat.supportedMaxPhotoDimensions`
    /// (other values are reported and ignored; Apple raises). Defaults to the format's smallest.
    public var maxPhotoDimensions: CMVideoDimensions {
        get {
            let device = currentDevice
            lock.lock(); defer { lock.unlock() }
            return maxDimensionsLocked(device: device)
        }
        set {
            guard let format = currentDevice?.activeFormat, format.supportedMaxPhotoDimensions.contains(where: { $0.width == newValue.width && $0.height == newValue.height }) else {
                DeviceDiagnostics.report(PhotoSettingsError.unsupportedPhotoDimensions(width: newValue.width, height: newValue.height))
                return
            }
            lock.lock(); _maxDimensions = newValue; lock.unlock()
        }
    }

    /// Highest `photoQualityPrioritization` settings may use (default `.balanced`).
    public var maxPhotoQualityPrioritization: QualityPrioritization {
        get { lock.lock(); defer { lock.unlock() }; return _maxQuality }
        set { lock.lock(); _maxQuality = newValue; lock.unlock() }
    }

    // MARK: Flash and stabilisation

    /// Flash modes the current camera supports.
    public var supportedFlashModes: [AVCaptureDevice.FlashMode] {
        guard let device = currentDevice else { return [] }
        return device.hasFlash ? [.off, .on, .auto] : [.off]
    }

    /// Settings whose flash and stabilisation modes `isFlashScene` and `isStillImageStabilizationScene` evaluate.
    public var photoSettingsForSceneMonitoring: AVCapturePhotoSettings? {
        get { lock.lock(); defer { lock.unlock() }; return _sceneMonitoring }
        set { lock.lock(); _sceneMonitoring = newValue; lock.unlock() }
    }

    /// Whether the flash would fire now: false unless `photoSettingsForSceneMonitoring` has flash `.auto` or `.on`.
    public var isFlashScene: Bool { sceneDecisions()?.flash ?? false }

    /// Whether still-image stabilisation would be used now (deprecated in iOS 13): the same decision
    /// a capture with `photoSettingsForSceneMonitoring` makes.
    public var isStillImageStabilizationScene: Bool { sceneDecisions()?.stabilization ?? false }

    /// The capture planner's flash and stabilisation decisions for `photoSettingsForSceneMonitoring` now.
    private func sceneDecisions() -> (flash: Bool, stabilization: Bool)? {
        guard let settings = photoSettingsForSceneMonitoring, let device = currentDevice else { return nil }
        let snapshot = device.captureSnapshot()
        let ambient = snapshot.meter(size: device.activeFormat.sensorReadoutSize, bias: snapshot.bias, flash: false, keepsHighlightHeadroom: true)
        let flash = SceneDecisions.firesFlash(FlashPolicy(settings.flashMode), hasFlash: device.hasFlash, ambient: ambient)
        let stabilization = SceneDecisions.usesStabilization(
            allowed: settings.isAutoStillImageStabilizationEnabled, quality: QualityPriority(settings.photoQualityPrioritization),
            manualExposure: snapshot.exposure.isManual, ambient: ambient, flash: flash)
        return (flash, stabilization)
    }

    /// Multi-frame still-image stabilisation (deprecated in iOS 13): supported on every simulated camera.
    public var isStillImageStabilizationSupported: Bool { currentDevice != nil }
    public var isAutoRedEyeReductionSupported: Bool { currentDevice?.hasFlash ?? false }

    // MARK: Brackets

    /// Most photos one bracketed request may take: as many full-size raw + processed frames as fit a
    /// 256 MiB buffer budget, at most 8 (4 at 12 MP); 0 without a camera.
    public var maxBracketedCapturePhotoCount: Int {
        guard let device = currentDevice else { return 0 }
        let size = device.activeFormat.sensorReadoutSize
        let bytesPerShot = size.pixelCount * (2 + 3)
        return max(1, min(8, (256 << 20) / max(1, bytesPerShot)))
    }

    /// Whether optical stabilisation can stay on across a bracket: true on cameras with OIS (the back wide camera).
    public var isLensStabilizationDuringBracketedCaptureSupported: Bool {
        currentDevice?.module.hasOpticalStabilization ?? false
    }

    // MARK: Prepared settings

    /// Settings prepared with `setPreparedPhotoSettingsArray(_:completionHandler:)`.
    public var preparedPhotoSettingsArray: [AVCapturePhotoSettings] {
        lock.lock(); defer { lock.unlock() }
        return _prepared
    }

    /// Prepares resources for these settings: renders the simulated scene for every photo size they
    /// need, so the first capture with them starts without that delay. The handler runs on the
    /// output's serial queue with whether preparation succeeded; if the session is not running it
    /// runs after `startRunning()`. A second call answers the first call's pending handler at once
    /// with `false`. An empty array frees the prepared resources.
    public func setPreparedPhotoSettingsArray(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings],
                                              completionHandler: ((Bool, Error?) -> Void)? = nil) {
        var firstError: Error?
        let device = currentDevice
        lock.lock()
        let context = ruleContext(device: device)
        for settings in preparedPhotoSettingsArray where firstError == nil {
            do { _ = try PhotoSettingsRules.validate(settings, in: context, preparing: true) } catch { firstError = error }
        }
        if firstError == nil { _prepared = preparedPhotoSettingsArray }
        let superseded = pendingPreparation
        pendingPreparation = nil
        preparationGeneration += 1
        let generation = preparationGeneration
        let handler = completionHandler.map { PreparationHandler($0) }
        lock.unlock()

        if let superseded { delegateQueue.async { superseded.call(false, nil) } }
        if let firstError {
            if let handler { delegateQueue.async { handler.call(false, firstError) } }
            return
        }
        lock.lock()
        pendingPreparation = handler
        lock.unlock()
        startPreparationIfRunning(generation: generation)
    }

    /// Renders what the prepared settings need on the delegate queue's side, then answers the handler.
    private func startPreparationIfRunning(generation: Int) {
        guard let device = currentDevice, session?.isRunning == true else { return }
        let sizes = Set(preparedPhotoSettingsArray.map { settings in
            device.module.readoutSize(forPhoto: PhotoSettingsRules.photoSize(settings, format: device.activeFormat))
        })
        let camera = device.camera
        DispatchQueue.global().async { [self] in
            if sizes.isEmpty { camera.purgeCaches() }
            for size in sizes { camera.prepare(size: size) }
            lock.lock()
            let current = generation == preparationGeneration ? pendingPreparation : nil
            if current != nil { pendingPreparation = nil }
            lock.unlock()
            if let current { delegateQueue.async { current.call(true, nil) } }
        }
    }

    override var needsFrameStream: Bool { isLivePhotoCaptureEnabled }

    override func didChangeConfiguration() {
        lock.lock()
        // Suspension ends with the session (Apple's default, without preservesLivePhotoCaptureSuspendedOnSessionStop).
        if session?.isRunning != true { livePhotoSuspended = false; livePhotoSuspensionTime = nil }
        let generation = pendingPreparation == nil ? nil : preparationGeneration
        lock.unlock()
        if let generation { startPreparationIfRunning(generation: generation) }
        warmUpIfRunning()
    }

    /// When the session runs (or its device, format or depth delivery changed while running): auto focus and the
    /// scene render for a default photo start in the background, as a phone's pipeline warms up, so the first
    /// request after `startRunning()` does not render the scene itself.
    private func warmUpIfRunning() {
        guard let device = currentDevice, session?.isRunning == true else {
            lock.lock(); warmedUp = nil; lock.unlock()
            return
        }
        let dimensions = device.activeFormat.dimensions
        lock.lock()
        let plan = WarmUp(device: ObjectIdentifier(device), size: Size(width: Int(dimensions.width), height: Int(dimensions.height)),
                          depth: depthDeliveryRequested)
        let fresh = warmedUp != plan
        warmedUp = plan
        lock.unlock()
        guard fresh else { return }
        let group = warmUps
        group.enter()
        // A thread of its own, not one of the dispatch pool's (one per core): the first request waits for the warm-up on
        // a pool thread, and the warm-up's parallel loops need the other pool threads.
        Thread.detachNewThread { [weak self] in
            defer { group.leave() }
            device.prepareForFirstPhoto(photoSize: plan.size, withDepth: plan.depth) {
                // Another warm-up replaced this one (the camera, format or depth changed): stop.
                guard let self else { return false }
                return self.withOutputLock { self.warmedUp == plan }
            }
        }
    }

    /// Blocks until the warm-ups started so far have ended (tests that need a settled camera).
    func waitUntilWarmedUp() {
        warmUps.wait()
    }

    // MARK: Internals

    /// Changes `readiness` under the lock and tells the readiness coordinators, each on a global queue.
    func updateReadiness(_ change: (inout PhotoOutputReadiness) -> Void) {
        let listeners = withOutputLock { () -> [@Sendable () -> Void] in
            let before = readiness
            change(&readiness)
            return readiness == before ? [] : Array(readinessListeners.values)
        }
        for listener in listeners { DispatchQueue.global().async(execute: listener) }
    }

    /// Runs `body` holding the output's lock (for extensions in other files).
    func withOutputLock<T>(_ body: () -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body()
    }

    /// The camera behind the output, when it is in a session with a device input.
    var currentDevice: AVCaptureDevice? {
        guard let connection = connections.first, connection.isEnabled else { return nil }
        return connection.input?.device
    }

    /// The state the settings rules check against; call with `lock` held.
    private func ruleContext(device: AVCaptureDevice?) -> PhotoSettingsRules.Context {
        let connected = session?.isRunning == true && connections.first?.isActive == true
        var context = PhotoSettingsRules.Context(output: self, device: device, isConnectedAndRunning: connected,
                                                 usedIDs: usedIDs, maxQuality: _maxQuality,
                                                 highResolutionCaptureEnabled: _highResolution,
                                                 maxPhotoDimensions: maxDimensionsLocked(device: device))
        context.depthEnabled = isDepthDataDeliveryEnabled
        context.livePhotoEnabled = isLivePhotoCaptureEnabled
        context.livePhotoSuspended = livePhotoSuspended
        context.matteEnabled = isPortraitEffectsMatteDeliveryEnabled
        context.depthFormat = device?.activeDepthDataFormat.flatMap { format in
            let type = CMFormatDescriptionGetMediaSubType(format.formatDescription)
            let size = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
            let kind: DepthMap.Kind = type == kCVPixelFormatType_DepthFloat16 || type == kCVPixelFormatType_DepthFloat32
                ? .depth : .disparity
            return (kind, FourCC(rawValue: type), Size(width: Int(size.width), height: Int(size.height)))
        }
        return context
    }

    /// The movie metadata iPhones write in a Live Photo movie besides the content identifier.
    /// The app's `livePhotoMovieMetadata` items (already validated) replace defaults with the same key.
    static func livePhotoMovieMetadata(date: Date, offsetSeconds: Int,
                                       items: [AVMetadataItem]) -> [LivePhotoMetadataItem] {
        var result = CaptureExif.movieMetadata(date: date, offsetSeconds: offsetSeconds)
            .map { LivePhotoMetadataItem(key: $0.key, value: $0.value) }
        for item in items {
            guard let key = item.quickTimeKey, let value = item.stringValue else { continue }
            result.removeAll { $0.key == key }
            result.append(LivePhotoMetadataItem(key: key, value: value))
        }
        return result
    }

    /// The set `maxPhotoDimensions`, or the active format's smallest photo size; call with `lock` held.
    private func maxDimensionsLocked(device: AVCaptureDevice?) -> CMVideoDimensions {
        _maxDimensions.width > 0 ? _maxDimensions
            : device?.activeFormat.supportedMaxPhotoDimensions.first ?? CMVideoDimensions(width: 0, height: 0)
    }

    /// The engine's request for validated settings: the device state, orientation, colour space and
    /// date, all read now. Call with `lock` held.
    private func makeRequest(_ settings: AVCapturePhotoSettings, parsed: PhotoSettingsRules.Parsed, device: AVCaptureDevice,
                             session: AVCaptureSession, connection: AVCaptureConnection) -> CaptureRequest {
        let (date, offset) = session.captureClock.read()
        var raw = parsed.raw
        let rawThumbnail = raw?.thumbnail.map(parsed.photoSize.fitted)
        raw?.thumbnail = rawThumbnail
        let bracket = (settings as? AVCapturePhotoBracketSettings).map { bracket in
            BracketRequest(shots: bracket.bracketedSettings.map(BracketShot.init), lensStabilization: bracket.isLensStabilizationEnabled)
        }
        return CaptureRequest(
            id: settings.uniqueID, index: requestCounter, device: device.captureSnapshot(withDepth: parsed.depth != nil),
            photoSize: parsed.photoSize,
            processed: parsed.processed, raw: raw, preview: parsed.preview, thumbnailSize: parsed.thumbnail,
            orientation: connection.exifOrientation,
            quality: QualityPriority(settings.photoQualityPrioritization), flash: FlashPolicy(settings.flashMode),
            redEyeReduction: settings.isAutoRedEyeReductionEnabled,
            allowsStillImageStabilization: settings.isAutoStillImageStabilizationEnabled, bracket: bracket,
            metadata: PhotoMetadataDictionary.overrides(from: settings.metadata), captureDate: date,
            timeZoneOffsetSeconds: offset, clockOrigin: session.clockOrigin, depth: parsed.depth)
    }
}

extension QualityPriority {
    init(_ apple: AVCapturePhotoOutput.QualityPrioritization) {
        switch apple {
        case .speed: self = .speed
        case .balanced: self = .balanced
        case .quality: self = .quality
        }
    }
}

extension FlashPolicy {
    init(_ mode: AVCaptureDevice.FlashMode) {
        switch mode {
        case .off: self = .off
        case .on: self = .on
        case .auto: self = .auto
        }
    }
}

extension BracketShot {
    init(_ entry: AVCaptureBracketedStillImageSettings) {
        if let manual = entry as? AVCaptureManualExposureBracketedStillImageSettings {
            self = .manualExposure(
                duration: manual.exposureDuration == AVCaptureExposureDurationCurrent ? nil : manual.exposureDuration.seconds,
                iso: manual.iso == AVCaptureISOCurrent ? nil : Double(manual.iso))
        } else {
            let auto = entry as? AVCaptureAutoExposureBracketedStillImageSettings
            self = .autoExposure(bias: auto.flatMap {
                $0.exposureTargetBias == AVCaptureExposureTargetBiasCurrent ? nil : Double($0.exposureTargetBias)
            })
        }
    }
}
