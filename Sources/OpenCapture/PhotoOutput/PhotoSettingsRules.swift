import CaptureCore
import CaptureEngine
import Foundation

/// Every rule `AVCapturePhotoOutput` applies to photo settings (API.md §9), in the order they are
/// checked, as one table. Each rule throws the `PhotoSettingsError` naming what it found broken and
/// records what it parsed, so the request is built from exactly what was validated.
struct PhotoSettingsRules {
    /// The output's state the rules are checked against, read under the output's lock.
    struct Context {
        var output: AVCapturePhotoOutput
        var device: AVCaptureDevice?
        /// Whether the output is in a running session with an active video connection.
        var isConnectedAndRunning: Bool
        var usedIDs: Set<Int64>
        var maxQuality: AVCapturePhotoOutput.QualityPrioritization
        var highResolutionCaptureEnabled: Bool
        var maxPhotoDimensions: CMVideoDimensions
        /// The output's `isDepthDataDeliveryEnabled` and `isPortraitEffectsMatteDeliveryEnabled` (already
        /// false when unsupported) and the device's active depth format.
        var depthEnabled = false
        var matteEnabled = false
        var depthFormat: (kind: DepthMap.Kind, pixelFormat: FourCC, size: Size)?
        /// The output's `isLivePhotoCaptureEnabled` and `isLivePhotoCaptureSuspended`.
        var livePhotoEnabled = false
        var livePhotoSuspended = false
    }

    /// What the rules parsed from the settings.
    struct Parsed {
        var processed: ProcessedDelivery?
        var raw: RawDelivery?
        var photoSize = Size(width: 0, height: 0)
        var preview: PreviewDelivery?
        var thumbnail: Size?
        var depth: DepthDelivery?
    }

    struct Rule: Sendable {
        let name: String
        /// Also checked by `setPreparedPhotoSettingsArray` (which needs no running session).
        let appliesToPreparation: Bool
        let check: @Sendable (Context, AVCapturePhotoSettings, inout Parsed) throws -> Void
    }

    /// Runs every rule (or only the preparation rules) and returns what they parsed.
    static func validate(_ settings: AVCapturePhotoSettings, in context: Context, preparing: Bool = false) throws -> Parsed {
        var parsed = Parsed()
        for rule in table where !preparing || rule.appliesToPreparation {
            try rule.check(context, settings, &parsed)
        }
        return parsed
    }

    static let table: [Rule] = [
        Rule(name: "settings are used once", appliesToPreparation: false) { c, s, _ in
            if c.usedIDs.contains(s.uniqueID) { throw PhotoSettingsError.settingsReused(uniqueID: s.uniqueID) }
        },
        Rule(name: "a running session with a camera", appliesToPreparation: false) { c, _, _ in
            guard c.isConnectedAndRunning, c.device != nil else { throw PhotoSettingsError.noActiveVideoConnection }
        },
        Rule(name: "RAW format, file type and its constraints", appliesToPreparation: true, check: checkRaw),
        Rule(name: "processed format: one of codec or pixel format, known keys, quality, file type",
             appliesToPreparation: true, check: checkProcessed),
        Rule(name: "quality prioritisation within the output's maximum", appliesToPreparation: false) { c, s, _ in
            if s.photoQualityPrioritization > c.maxQuality { throw PhotoSettingsError.qualityPrioritizationAboveMaximum }
        },
        Rule(name: "flash mode supported", appliesToPreparation: false) { c, s, _ in
            if !c.output.supportedFlashModes.contains(s.flashMode) { throw PhotoSettingsError.unsupportedFlashMode(s.flashMode) }
        },
        Rule(name: "high resolution needs the output's flag", appliesToPreparation: false) { c, s, _ in
            if s.isHighResolutionPhotoEnabled && !c.highResolutionCaptureEnabled {
                throw PhotoSettingsError.highResolutionCaptureNotEnabled
            }
        },
        Rule(name: "maxPhotoDimensions a supported size within the output's", appliesToPreparation: false) { c, s, p in
            let requested = s.maxPhotoDimensions
            if requested.width != 0 || requested.height != 0 {
                if let format = c.device?.activeFormat,
                   !format.supportedMaxPhotoDimensions.contains(where: { $0.width == requested.width && $0.height == requested.height }) {
                    throw PhotoSettingsError.unsupportedPhotoDimensions(width: requested.width, height: requested.height)
                }
                if requested.width > c.maxPhotoDimensions.width || requested.height > c.maxPhotoDimensions.height {
                    throw PhotoSettingsError.photoDimensionsAboveMaximum(width: requested.width, height: requested.height)
                }
            }
            if let format = c.device?.activeFormat { p.photoSize = photoSize(s, format: format) }
        },
        Rule(name: "bracket shape, ranges and features", appliesToPreparation: true, check: checkBracket),
        Rule(name: "depth, matte and calibration: enabled on the output, matte and calibration with depth, no bracket",
             appliesToPreparation: true, check: checkDepth),
        Rule(name: "features not supported are not requested", appliesToPreparation: false) { _, s, _ in
            let requested: [(Bool, String)] = [
                (s.isConstantColorEnabled, "Constant color"),
                (s.isShutterSoundSuppressionEnabled, "Shutter sound suppression"),
                (s.isAutoContentAwareDistortionCorrectionEnabled, "Content-aware distortion correction"),
            ]
            for (isRequested, name) in requested where isRequested { throw PhotoSettingsError.featureNotEnabled(name) }
        },
        Rule(name: "Live Photo: enabled, not suspended, a file URL, a supported codec", appliesToPreparation: true) { c, s, _ in
            guard let url = s.livePhotoMovieFileURL else { return }
            if !c.livePhotoEnabled { throw PhotoSettingsError.featureNotEnabled("Live Photo capture") }
            if c.livePhotoSuspended { throw PhotoSettingsError.livePhotoCaptureSuspended }
            var isFolder: ObjCBool = false
            guard url.isFileURL, !url.hasDirectoryPath,
                  FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isFolder), isFolder.boolValue else {
                throw PhotoSettingsError.invalidLivePhotoMovieURL(url.absoluteString)
            }
            if !c.output.availableLivePhotoVideoCodecTypes.contains(s.livePhotoVideoCodecType) {
                throw PhotoSettingsError.unsupportedCodec(s.livePhotoVideoCodecType.rawValue)
            }
            for item in s.livePhotoMovieMetadata {
                guard let key = item.quickTimeKey else {
                    throw PhotoSettingsError.invalidLivePhotoMovieMetadata("\(item.identifier?.rawValue ?? "an item without an identifier") is not a QuickTime or common key")
                }
                if key == AVMetadataKey.quickTimeMetadataKeyContentIdentifier.rawValue {
                    throw PhotoSettingsError.invalidLivePhotoMovieMetadata("the content identifier is written by the system")
                }
                if item.stringValue == nil { throw PhotoSettingsError.invalidLivePhotoMovieMetadata("\(key) has no text value") }
            }
        },
        Rule(name: "metadata keys are ImageIO keys, with values a photo can carry", appliesToPreparation: false) { _, s, _ in
            for key in s.metadata.keys.sorted() where !imageIOTopLevelKeys.contains(key) {
                throw PhotoSettingsError.invalidMetadataKey(key)
            }
            try PhotoMetadataDictionary.validate(s.metadata)
        },
        Rule(name: "preview format", appliesToPreparation: false, check: checkPreview),
        Rule(name: "embedded thumbnail format", appliesToPreparation: false, check: checkThumbnail),
    ]

    // MARK: Rules

    private static func checkDepth(_ c: Context, _ s: AVCapturePhotoSettings, _ p: inout Parsed) throws {
        let depth = s.isDepthDataDeliveryEnabled, matte = s.isPortraitEffectsMatteDeliveryEnabled
        let calibration = s.isCameraCalibrationDataDeliveryEnabled
        guard depth || matte || calibration else { return }
        if matte && !depth { throw PhotoSettingsError.portraitEffectsMatteNeedsDepth }
        if calibration && !depth { throw PhotoSettingsError.cameraCalibrationNeedsDepth }
        if s is AVCapturePhotoBracketSettings { throw PhotoSettingsError.bracketUnsupportedFeature("depth data delivery") }
        // Depth and the matte are delivered only when the output has them on (which needs a device that measures depth).
        guard c.depthEnabled, let format = c.depthFormat else { throw PhotoSettingsError.featureNotEnabled("Depth data delivery") }
        if matte && !c.matteEnabled { throw PhotoSettingsError.featureNotEnabled("Portrait effects matte delivery") }
        if s.format == nil && s.rawPhotoPixelFormatType != 0 { throw PhotoSettingsError.depthNeedsProcessedPhoto }
        p.depth = DepthDelivery(kind: format.kind, pixelFormat: format.pixelFormat, size: format.size,
                                filtered: s.isDepthDataFiltered, embed: s.embedsDepthDataInPhoto, calibration: calibration,
                                matte: matte ? MatteDelivery(embed: s.embedsPortraitEffectsMatteInPhoto) : nil)
    }

    private static func checkRaw(_ c: Context, _ s: AVCapturePhotoSettings, _ p: inout Parsed) throws {
        guard s.rawPhotoPixelFormatType != 0 else {
            if let type = s.rawFileType { throw PhotoSettingsError.unsupportedFileType(type.rawValue) }
            return
        }
        guard c.output.availableRawPhotoPixelFormatTypes.contains(s.rawPhotoPixelFormatType) else {
            throw PhotoSettingsError.unsupportedRawPixelFormat(s.rawPhotoPixelFormatType)
        }
        if let type = s.rawFileType, type != .dng { throw PhotoSettingsError.unsupportedFileType(type.rawValue) }
        if AVCapturePhotoOutput.isBayerRAWPixelFormat(s.rawPhotoPixelFormatType) {
            if s.photoQualityPrioritization != .speed { throw PhotoSettingsError.rawNeedsSpeedPrioritization }
            if s.isAutoStillImageStabilizationEnabled && !(s is AVCapturePhotoBracketSettings) {
                throw PhotoSettingsError.rawWithStillImageStabilization
            }
        }
        var thumbnail: Size?
        if let dictionary = s.rawEmbeddedThumbnailPhotoFormat {
            guard dictionary[AVVideoCodecKey] != nil else {
                throw PhotoSettingsError.invalidThumbnailFormat("rawEmbeddedThumbnailPhotoFormat needs AVVideoCodecKey")
            }
            let format = try parse(dictionary, allowed: [AVVideoCodecKey, AVVideoWidthKey, AVVideoHeightKey],
                                   as: PhotoSettingsError.invalidThumbnailFormat)
            guard let codec = format.codec else {
                throw PhotoSettingsError.invalidThumbnailFormat("rawEmbeddedThumbnailPhotoFormat needs AVVideoCodecKey")
            }
            guard s.availableRawEmbeddedThumbnailPhotoCodecTypes.contains(codec) else {
                throw PhotoSettingsError.invalidThumbnailFormat("raw thumbnail codec \(codec.rawValue) is not available")
            }
            let limit = Size(width: 1024, height: 1024)
            thumbnail = format.box(limit: limit) ?? limit
        }
        p.raw = RawDelivery(pixelFormat: FourCC(rawValue: s.rawPhotoPixelFormatType), thumbnail: thumbnail)
    }

    private static func checkProcessed(_ c: Context, _ s: AVCapturePhotoSettings, _ p: inout Parsed) throws {
        guard let dictionary = s.format else {
            if s.rawPhotoPixelFormatType != 0 { return }
            throw PhotoSettingsError.formatNeedsExactlyOneOfCodecOrPixelFormat
        }
        if (dictionary[AVVideoCodecKey] == nil) == (dictionary[kCVPixelBufferPixelFormatTypeKey] == nil) {
            throw PhotoSettingsError.formatNeedsExactlyOneOfCodecOrPixelFormat
        }
        let format: SettingsFormat
        do {
            format = try SettingsFormat(dictionary, allowedKeys: [AVVideoCodecKey, kCVPixelBufferPixelFormatTypeKey,
                                                                 AVVideoCompressionPropertiesKey])
        } catch .unreadable(let key) where key == AVVideoCodecKey {
            throw PhotoSettingsError.unsupportedCodec(String(describing: dictionary[key] ?? ""))
        } catch .unreadable(let key) where key == kCVPixelBufferPixelFormatTypeKey {
            throw PhotoSettingsError.unsupportedPixelFormat(0)
        } catch .unreadable(let key), .unknownKey(let key) {
            throw PhotoSettingsError.unsupportedFormatKey(key)
        } catch {
            throw PhotoSettingsError.unsupportedFormatKey(String(describing: error))
        }
        if let codec = format.codec {
            guard c.output.availablePhotoCodecTypes.contains(codec) else { throw PhotoSettingsError.unsupportedCodec(codec.rawValue) }
            let quality = format.quality ?? 0.9
            guard (0...1).contains(quality) else { throw PhotoSettingsError.invalidQuality(quality) }
            if let type = s.processedFileType, !c.output.supportedPhotoCodecTypes(for: type).contains(codec) {
                throw PhotoSettingsError.unsupportedFileType(type.rawValue)
            }
            p.processed = codec == .hevc ? .hevc(quality: quality) : .jpeg(quality: quality)
        } else if let code = format.pixelFormat {
            if format.hasCompressionProperties { throw PhotoSettingsError.unsupportedFormatKey(AVVideoCompressionPropertiesKey) }
            guard c.output.availablePhotoPixelFormatTypes.contains(code) else { throw PhotoSettingsError.unsupportedPixelFormat(code) }
            if let type = s.processedFileType, type != .tif { throw PhotoSettingsError.unsupportedFileType(type.rawValue) }
            p.processed = .uncompressed(pixelFormat: FourCC(rawValue: code))
        }
    }

    /// Apple's bracket rules (API.md §3, §4, §9.8), checked against the active format and device.
    private static func checkBracket(_ c: Context, _ s: AVCapturePhotoSettings, _ p: inout Parsed) throws {
        guard let bracket = s as? AVCapturePhotoBracketSettings, let device = c.device else { return }
        let entries = bracket.bracketedSettings
        guard !entries.isEmpty else { throw PhotoSettingsError.bracketIsEmpty }
        let autos = entries.compactMap { $0 as? AVCaptureAutoExposureBracketedStillImageSettings }
        let manuals = entries.compactMap { $0 as? AVCaptureManualExposureBracketedStillImageSettings }
        guard autos.count == entries.count || manuals.count == entries.count else { throw PhotoSettingsError.bracketMixesSettingsTypes }
        let maximum = c.output.maxBracketedCapturePhotoCount
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
        if bracket.isLensStabilizationEnabled && !c.output.isLensStabilizationDuringBracketedCaptureSupported {
            throw PhotoSettingsError.lensStabilizationNotSupported
        }
        if bracket.flashMode != .off { throw PhotoSettingsError.bracketUnsupportedFeature("flashMode") }
        if bracket.isAutoStillImageStabilizationEnabled {
            throw PhotoSettingsError.bracketUnsupportedFeature("autoStillImageStabilizationEnabled")
        }
        if bracket.livePhotoMovieFileURL != nil { throw PhotoSettingsError.bracketUnsupportedFeature("livePhotoMovieFileURL") }
    }

    private static func checkPreview(_ c: Context, _ s: AVCapturePhotoSettings, _ p: inout Parsed) throws {
        guard let dictionary = s.previewPhotoFormat else { return }
        guard dictionary[kCVPixelBufferPixelFormatTypeKey] != nil else {
            throw PhotoSettingsError.invalidPreviewFormat("kCVPixelBufferPixelFormatTypeKey is required")
        }
        let format = try parse(dictionary, allowed: [kCVPixelBufferPixelFormatTypeKey, kCVPixelBufferWidthKey,
                                                     kCVPixelBufferHeightKey], as: PhotoSettingsError.invalidPreviewFormat)
        guard let code = format.pixelFormat else {
            throw PhotoSettingsError.invalidPreviewFormat("kCVPixelBufferPixelFormatTypeKey is required")
        }
        guard s.availablePreviewPhotoPixelFormatTypes.contains(code) else {
            throw PhotoSettingsError.invalidPreviewFormat("pixel format \(FourCCText(code)) is not available")
        }
        let display = Size(width: 1440, height: 1440)  // "limited to display size"
        p.preview = PreviewDelivery(pixelFormat: FourCC(rawValue: code),
                                    size: format.fitted(p.photoSize, defaultBox: display, limit: display))
    }

    private static func checkThumbnail(_ c: Context, _ s: AVCapturePhotoSettings, _ p: inout Parsed) throws {
        guard let dictionary = s.embeddedThumbnailPhotoFormat else { return }
        guard dictionary[AVVideoCodecKey] != nil else { throw PhotoSettingsError.invalidThumbnailFormat("AVVideoCodecKey is required") }
        let format = try parse(dictionary, allowed: [AVVideoCodecKey, AVVideoWidthKey, AVVideoHeightKey],
                               as: PhotoSettingsError.invalidThumbnailFormat)
        guard let codec = format.codec else { throw PhotoSettingsError.invalidThumbnailFormat("AVVideoCodecKey is required") }
        guard s.availableEmbeddedThumbnailPhotoCodecTypes.contains(codec) else {
            throw PhotoSettingsError.invalidThumbnailFormat("codec \(codec.rawValue) is not available")
        }
        switch p.processed {
        case .jpeg, .hevc: break
        default: throw PhotoSettingsError.invalidThumbnailFormat("thumbnails are embedded in compressed photos only")
        }
        p.thumbnail = format.fitted(p.photoSize, defaultBox: Size(width: 320, height: 240), limit: Size(width: 512, height: 512))
    }

    // MARK: Helpers

    /// Parses a secondary format dictionary, turning parse problems into the caller's error.
    private static func parse(_ dictionary: [String: Any], allowed: Set<String>,
                              as makeError: (String) -> PhotoSettingsError) throws -> SettingsFormat {
        do { return try SettingsFormat(dictionary, allowedKeys: allowed) } catch { throw makeError(error.description) }
    }

    /// The photo size a request gets: the largest supported size within its `maxPhotoDimensions`,
    /// the high-resolution size when asked for, or the format's size.
    static func photoSize(_ settings: AVCapturePhotoSettings, format: AVCaptureDevice.Format) -> Size {
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
}
