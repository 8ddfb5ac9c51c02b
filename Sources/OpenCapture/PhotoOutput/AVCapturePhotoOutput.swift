import CameraSimulation
import CaptureCore
import Foundation

/// Captures still photos (Apple's `AVCapturePhotoOutput`). Requests may overlap: each keeps its
/// own callback order, and all callbacks arrive on one serial queue owned by the output.
///
/// Difference from Apple: invalid settings never raise. `validate(_:)` throws a
/// `PhotoSettingsError`, and `capturePhoto(with:delegate:)` with such settings captures nothing
/// and calls only `photoOutput(_:didFinishCaptureFor:error:)` with that error.
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

    /// The serial queue every delegate callback runs on.
    let delegateQueue = DispatchQueue(label: "OpenCapture.AVCapturePhotoOutput.delegate")
    /// Set on `delegateQueue`, so tests can check where callbacks run.
    let delegateQueueKey = DispatchSpecificKey<Bool>()
    /// The scheduler that runs exposures and processing.
    lazy var engine = PhotoCaptureEngine(output: self)

    public override init() {
        super.init()
        delegateQueue.setSpecific(key: delegateQueueKey, value: true)
    }

    // MARK: Capture

    /// Starts a capture. The settings are copied; the delegate is held weakly.
    public func capturePhoto(with settings: AVCapturePhotoSettings, delegate: AVCapturePhotoCaptureDelegate) {
        let snapshot = settings.copy() as! AVCapturePhotoSettings
        lock.lock()
        let validation = Result { try validateLocked(snapshot) }
        if case .success = validation {
            usedIDs.insert(snapshot.uniqueID)
            requestCounter += 1
        }
        let index = requestCounter
        lock.unlock()

        switch validation {
        case .failure(let error):
            engine.refuse(settings: snapshot, error: error, delegate: delegate)
        case .success(let context):
            engine.submit(PhotoRequest(settings: snapshot, context: context, index: index), delegate: delegate)
        }
    }

    /// OpenCapture addition: checks settings against every rule `capturePhoto` applies (Apple raises
    /// NSInvalidArgumentException for these) and throws the first broken one.
    public func validate(_ settings: AVCapturePhotoSettings) throws {
        lock.lock(); defer { lock.unlock() }
        _ = try validateLocked(settings)
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
            lock.lock(); defer { lock.unlock() }
            if _maxDimensions.width > 0 { return _maxDimensions }
            return currentDevice?.activeFormat.supportedMaxPhotoDimensions.first ?? CMVideoDimensions(width: 0, height: 0)
        }
        set {
            guard let format = currentDevice?.activeFormat, format.supportedMaxPhotoDimensions.contains(where: { $0.width == newValue.width && $0.height == newValue.height }) else {
                DeviceDiagnostics.report(PhotoSettingsError.photoDimensionsAboveMaximum(width: newValue.width, height: newValue.height))
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
    public var isFlashScene: Bool {
        guard let settings = photoSettingsForSceneMonitoring, let device = currentDevice else { return false }
        let ambient = PhotoCaptureEngine.meterAmbient(device: device, size: device.activeFormat.sensorReadoutSize)
        return PhotoCaptureEngine.firesFlash(settings, device: device, ambient: ambient)
    }

    /// Whether still-image stabilisation would be used now (deprecated in iOS 13): the same decision
    /// a capture with `photoSettingsForSceneMonitoring` makes.
    public var isStillImageStabilizationScene: Bool {
        guard let settings = photoSettingsForSceneMonitoring, let device = currentDevice else { return false }
        let ambient = PhotoCaptureEngine.meterAmbient(device: device, size: device.activeFormat.sensorReadoutSize)
        let flash = PhotoCaptureEngine.firesFlash(settings, device: device, ambient: ambient)
        return PhotoCaptureEngine.usesStabilization(settings, device: device, ambient: ambient, flash: flash)
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

    // MARK: Features not simulated yet (always unsupported)

    public var isLivePhotoCaptureSupported: Bool { false }
    /// Live Photos are not simulated yet; stays false.
    public var isLivePhotoCaptureEnabled: Bool {
        get { false }
        set { if newValue { DeviceDiagnostics.report(PhotoSettingsError.featureNotEnabled("Live Photo capture")) } }
    }
    public var isDepthDataDeliverySupported: Bool { false }
    public var isDepthDataDeliveryEnabled: Bool { get { false } set {} }
    public var isPortraitEffectsMatteDeliverySupported: Bool { false }
    public var isPortraitEffectsMatteDeliveryEnabled: Bool { get { false } set {} }
    public var isCameraCalibrationDataDeliverySupported: Bool { false }
    public var isVirtualDeviceFusionSupported: Bool { false }
    public var isDualCameraFusionSupported: Bool { false }
    public var isVirtualDeviceConstituentPhotoDeliverySupported: Bool { false }
    public var isContentAwareDistortionCorrectionSupported: Bool { false }
    public var isContentAwareDistortionCorrectionEnabled: Bool { get { false } set {} }

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
        lock.lock()
        for settings in preparedPhotoSettingsArray where firstError == nil {
            do {
                _ = try validateFormats(settings)
                if let bracket = settings as? AVCapturePhotoBracketSettings, let device = currentDevice {
                    try validateBracket(bracket, device: device)
                }
            } catch { firstError = error }
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
            AVCaptureDevice.Format.readoutSize(for: resolvedPhotoSize(settings, format: device.activeFormat), module: device.module)
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

    override func didChangeConfiguration() {
        lock.lock()
        let generation = pendingPreparation == nil ? nil : preparationGeneration
        lock.unlock()
        if let generation { startPreparationIfRunning(generation: generation) }
    }

    // MARK: Internals

    /// The camera behind the output, when it is in a session with a device input.
    var currentDevice: AVCaptureDevice? {
        guard let connection = connections.first, connection.isEnabled else { return nil }
        return connection.input?.device
    }

    private func validateLocked(_ settings: AVCapturePhotoSettings) throws -> CaptureContext {
        if usedIDs.contains(settings.uniqueID) { throw PhotoSettingsError.settingsReused(uniqueID: settings.uniqueID) }
        guard let session, session.isRunning, let connection = connections.first, connection.isActive,
              let device = connection.input?.device else { throw PhotoSettingsError.noActiveVideoConnection }
        let (output, raw) = try validateFormats(settings)
        if settings.photoQualityPrioritization > _maxQuality { throw PhotoSettingsError.qualityPrioritizationAboveMaximum }
        if !supportedFlashModes.contains(settings.flashMode) { throw PhotoSettingsError.unsupportedFlashMode(settings.flashMode) }
        if settings.isHighResolutionPhotoEnabled && !_highResolution { throw PhotoSettingsError.highResolutionCaptureNotEnabled }
        let format = device.activeFormat
        let requested = settings.maxPhotoDimensions
        if requested.width > 0 || requested.height > 0 {
            let maximum = maxPhotoDimensions
            if requested.width > maximum.width || requested.height > maximum.height {
                throw PhotoSettingsError.photoDimensionsAboveMaximum(width: requested.width, height: requested.height)
            }
        }
        if let bracket = settings as? AVCapturePhotoBracketSettings { try validateBracket(bracket, device: device) }
        try validateFeatures(settings)
        for key in settings.metadata.keys where !imageIOTopLevelKeys.contains(key) {
            throw PhotoSettingsError.invalidMetadataKey(key)
        }
        let photoSize = resolvedPhotoSize(settings, format: format)
        let preview = try validatePreview(settings, photoSize: photoSize)
        let thumbnail = try validateThumbnail(settings, output: output, photoSize: photoSize)
        return CaptureContext(device: device, session: session, format: format, photoSize: photoSize, output: output,
                              raw: raw.map { RawRequest(pixelFormat: $0.pixelFormat, thumbnail: $0.thumbnail.map(photoSize.fitted)) },
                              preview: preview, thumbnail: thumbnail, orientation: connection.exifOrientation,
                              maxQuality: _maxQuality, colorSpace: device.activeColorSpace == .P3_D65 ? .displayP3 : .sRGB)
    }

    /// Checks the processed, RAW and file-type parts of the settings.
    private func validateFormats(_ settings: AVCapturePhotoSettings) throws -> (ProcessedOutput?, RawRequest?) {
        var raw: RawRequest?
        if settings.rawPhotoPixelFormatType != 0 {
            guard availableRawPhotoPixelFormatTypes.contains(settings.rawPhotoPixelFormatType) else {
                throw PhotoSettingsError.unsupportedRawPixelFormat(settings.rawPhotoPixelFormatType)
            }
            if let rawType = settings.rawFileType, rawType != .dng { throw PhotoSettingsError.unsupportedFileType(rawType.rawValue) }
            if AVCapturePhotoOutput.isBayerRAWPixelFormat(settings.rawPhotoPixelFormatType) {
                if settings.photoQualityPrioritization != .speed { throw PhotoSettingsError.rawNeedsSpeedPrioritization }
                if settings.isAutoStillImageStabilizationEnabled && !(settings is AVCapturePhotoBracketSettings) {
                    throw PhotoSettingsError.rawWithStillImageStabilization
                }
            }
            raw = RawRequest(pixelFormat: settings.rawPhotoPixelFormatType, thumbnail: try validateRawThumbnail(settings))
        } else if let rawType = settings.rawFileType {
            throw PhotoSettingsError.unsupportedFileType(rawType.rawValue)
        }
        guard let format = settings.format else {
            if raw != nil { return (nil, raw) }
            throw PhotoSettingsError.formatNeedsExactlyOneOfCodecOrPixelFormat
        }
        let codec = format[AVVideoCodecKey]
        let pixelFormat = format[kCVPixelBufferPixelFormatTypeKey]
        if (codec == nil) == (pixelFormat == nil) { throw PhotoSettingsError.formatNeedsExactlyOneOfCodecOrPixelFormat }
        for key in format.keys where ![AVVideoCodecKey, kCVPixelBufferPixelFormatTypeKey, AVVideoCompressionPropertiesKey].contains(key) {
            throw PhotoSettingsError.unsupportedFormatKey(key)
        }
        if let codec {
            let type: AVVideoCodecType
            if let value = codec as? AVVideoCodecType { type = value }
            else if let value = codec as? String { type = AVVideoCodecType(rawValue: value) }
            else { throw PhotoSettingsError.unsupportedCodec(String(describing: codec)) }
            guard availablePhotoCodecTypes.contains(type) else { throw PhotoSettingsError.unsupportedCodec(type.rawValue) }
            var quality = 0.9
            if let properties = format[AVVideoCompressionPropertiesKey] {
                guard let dictionary = properties as? [String: Any] else {
                    throw PhotoSettingsError.unsupportedFormatKey(AVVideoCompressionPropertiesKey)
                }
                for key in dictionary.keys where key != AVVideoQualityKey { throw PhotoSettingsError.unsupportedFormatKey(key) }
                if let value = dictionary[AVVideoQualityKey] {
                    guard let number = PhotoCaptureEngine.double(value) else {
                        throw PhotoSettingsError.unsupportedFormatKey(AVVideoQualityKey)
                    }
                    guard (0...1).contains(number) else { throw PhotoSettingsError.invalidQuality(number) }
                    quality = number
                }
            }
            if let fileType = settings.processedFileType, !supportedPhotoCodecTypes(for: fileType).contains(type) {
                throw PhotoSettingsError.unsupportedFileType(fileType.rawValue)
            }
            return (type == .hevc ? .hevc(quality: quality) : .jpeg(quality: quality), raw)
        }
        if format[AVVideoCompressionPropertiesKey] != nil {
            throw PhotoSettingsError.unsupportedFormatKey(AVVideoCompressionPropertiesKey)
        }
        guard let code = PhotoCaptureEngine.osType(pixelFormat!) else {
            throw PhotoSettingsError.unsupportedPixelFormat(0)
        }
        guard availablePhotoPixelFormatTypes.contains(code) else { throw PhotoSettingsError.unsupportedPixelFormat(code) }
        if let fileType = settings.processedFileType, fileType != .tif {
            throw PhotoSettingsError.unsupportedFileType(fileType.rawValue)
        }
        return (.uncompressed(pixelFormat: code), raw)
    }

    /// The DNG preview size asked for with `rawEmbeddedThumbnailPhotoFormat` (JPEG codec, optional width and height).
    private func validateRawThumbnail(_ settings: AVCapturePhotoSettings) throws -> Size? {
        guard let format = settings.rawEmbeddedThumbnailPhotoFormat else { return nil }
        guard let codec = format[AVVideoCodecKey] else {
            throw PhotoSettingsError.invalidThumbnailFormat("rawEmbeddedThumbnailPhotoFormat needs AVVideoCodecKey")
        }
        let type = (codec as? AVVideoCodecType) ?? (codec as? String).map { AVVideoCodecType(rawValue: $0) }
        guard let type, settings.availableRawEmbeddedThumbnailPhotoCodecTypes.contains(type) else {
            throw PhotoSettingsError.invalidThumbnailFormat("raw thumbnail codec \(codec) is not available")
        }
        let width = format[AVVideoWidthKey].flatMap(PhotoCaptureEngine.double)
        let height = format[AVVideoHeightKey].flatMap(PhotoCaptureEngine.double)
        if (width == nil) != (height == nil) { throw PhotoSettingsError.invalidThumbnailFormat("width and height must be given together") }
        if let width, let height {
            guard width >= 1, height >= 1 else { throw PhotoSettingsError.invalidThumbnailFormat("width and height must be positive") }
            return Size(width: min(Int(width), 1024), height: min(Int(height), 1024))
        }
        return Size(width: 1024, height: 1024)
    }

    /// Apple's bracket rules (API.md §3, §4, §9.8), checked against the active format and device.
    private func validateBracket(_ bracket: AVCapturePhotoBracketSettings, device: AVCaptureDevice) throws {
        let entries = bracket.bracketedSettings
        guard !entries.isEmpty else { throw PhotoSettingsError.bracketIsEmpty }
        let autos = entries.compactMap { $0 as? AVCaptureAutoExposureBracketedStillImageSettings }
        let manuals = entries.compactMap { $0 as? AVCaptureManualExposureBracketedStillImageSettings }
        guard autos.count == entries.count || manuals.count == entries.count else { throw PhotoSettingsError.bracketMixesSettingsTypes }
        let maximum = maxBracketedCapturePhotoCount
        guard entries.count <= maximum else { throw PhotoSettingsError.bracketTooLarge(count: entries.count, maximum: maximum) }
        for auto in autos where auto.exposureTargetBias != AVCaptureExposureTargetBiasCurrent {
            guard (device.minExposureTargetBias...device.maxExposureTargetBias).contains(auto.exposureTargetBias) else {
                throw PhotoSettingsError.bracketBiasOutOfRange(auto.exposureTargetBias)
            }
        }
        let format = device.activeFormat
        for manual in manuals {
            if manual.iso != AVCaptureISOCurrent, !(format.minISO...format.maxISO).contains(manual.iso) {
                throw PhotoSettingsError.bracketISOOutOfRange(manual.iso)
            }
            if manual.exposureDuration != AVCaptureExposureDurationCurrent {
                let seconds = manual.exposureDuration.seconds
                guard seconds.isFinite, seconds >= format.minExposureDuration.seconds - 1e-12,
                      seconds <= format.maxExposureDuration.seconds + 1e-12 else {
                    throw PhotoSettingsError.bracketDurationOutOfRange(seconds)
                }
            }
        }
        if bracket.isLensStabilizationEnabled && !isLensStabilizationDuringBracketedCaptureSupported {
            throw PhotoSettingsError.lensStabilizationNotSupported
        }
        if bracket.flashMode != .off { throw PhotoSettingsError.bracketUnsupportedFeature("flashMode") }
        if bracket.isAutoStillImageStabilizationEnabled {
            throw PhotoSettingsError.bracketUnsupportedFeature("autoStillImageStabilizationEnabled")
        }
        if bracket.livePhotoMovieFileURL != nil { throw PhotoSettingsError.bracketUnsupportedFeature("livePhotoMovieFileURL") }
    }

    private func validateFeatures(_ settings: AVCapturePhotoSettings) throws {
        let checks: [(Bool, String)] = [
            (settings.isDepthDataDeliveryEnabled, "Depth data delivery"),
            (settings.isPortraitEffectsMatteDeliveryEnabled, "Portrait effects matte delivery"),
            (settings.isCameraCalibrationDataDeliveryEnabled, "Camera calibration data delivery"),
            (settings.livePhotoMovieFileURL != nil, "Live Photo capture"),
            (settings.isConstantColorEnabled, "Constant color"),
            (settings.isShutterSoundSuppressionEnabled, "Shutter sound suppression"),
            (settings.isAutoContentAwareDistortionCorrectionEnabled, "Content-aware distortion correction"),
        ]
        for (requested, name) in checks where requested { throw PhotoSettingsError.featureNotEnabled(name) }
    }

    private func resolvedPhotoSize(_ settings: AVCapturePhotoSettings, format: AVCaptureDevice.Format) -> Size {
        let requested = settings.maxPhotoDimensions
        if requested.width > 0, requested.height > 0 {
            let fitting = format.supportedMaxPhotoDimensions.filter { $0.width <= requested.width && $0.height <= requested.height }
            if let best = fitting.max(by: { Int($0.width) * Int($0.height) < Int($1.width) * Int($1.height) }) {
                return Size(width: Int(best.width), height: Int(best.height))
            }
        }
        if settings.isHighResolutionPhotoEnabled {
            let hr = format.highResolutionStillImageDimensions
            return Size(width: Int(hr.width), height: Int(hr.height))
        }
        return format.dimensions
    }

    private func validatePreview(_ settings: AVCapturePhotoSettings, photoSize: Size) throws -> PreviewRequest? {
        guard let format = settings.previewPhotoFormat else { return nil }
        guard let value = format[kCVPixelBufferPixelFormatTypeKey], let code = PhotoCaptureEngine.osType(value) else {
            throw PhotoSettingsError.invalidPreviewFormat("kCVPixelBufferPixelFormatTypeKey is required")
        }
        guard settings.availablePreviewPhotoPixelFormatTypes.contains(code) else {
            throw PhotoSettingsError.invalidPreviewFormat("pixel format \(FourCCText(code)) is not available")
        }
        let width = format[kCVPixelBufferWidthKey].flatMap(PhotoCaptureEngine.double)
        let height = format[kCVPixelBufferHeightKey].flatMap(PhotoCaptureEngine.double)
        if (width == nil) != (height == nil) {
            throw PhotoSettingsError.invalidPreviewFormat("width and height must be given together")
        }
        var box = Size(width: 1440, height: 1440)  // "limited to display size"
        if let width, let height {
            guard width >= 1, height >= 1 else { throw PhotoSettingsError.invalidPreviewFormat("width and height must be positive") }
            box = Size(width: min(Int(width), box.width), height: min(Int(height), box.height))
        }
        return PreviewRequest(pixelFormat: code, size: photoSize.fitted(within: box))
    }

    private func validateThumbnail(_ settings: AVCapturePhotoSettings, output: ProcessedOutput?,
                                   photoSize: Size) throws -> ThumbnailRequest? {
        guard let format = settings.embeddedThumbnailPhotoFormat else { return nil }
        guard let codec = format[AVVideoCodecKey] else {
            throw PhotoSettingsError.invalidThumbnailFormat("AVVideoCodecKey is required")
        }
        let type = (codec as? AVVideoCodecType) ?? (codec as? String).map { AVVideoCodecType(rawValue: $0) }
        guard let type, settings.availableEmbeddedThumbnailPhotoCodecTypes.contains(type) else {
            throw PhotoSettingsError.invalidThumbnailFormat("codec \(codec) is not available")
        }
        switch output {
        case .jpeg, .hevc: break
        default: throw PhotoSettingsError.invalidThumbnailFormat("thumbnails are embedded in compressed photos only")
        }
        let width = format[AVVideoWidthKey].flatMap(PhotoCaptureEngine.double)
        let height = format[AVVideoHeightKey].flatMap(PhotoCaptureEngine.double)
        var box = Size(width: 320, height: 240)
        if let width, let height, width >= 1, height >= 1 {
            box = Size(width: min(Int(width), 512), height: min(Int(height), 512))
        } else if width != nil || height != nil {
            throw PhotoSettingsError.invalidThumbnailFormat("width and height must be given together and be positive")
        }
        return ThumbnailRequest(size: photoSize.fitted(within: box))
    }
}
