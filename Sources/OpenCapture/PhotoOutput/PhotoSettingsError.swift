import CaptureCore

/// Why `AVCapturePhotoOutput` refused a photo request (OpenCapture addition). Apple raises an
/// Objective-C exception for each of these; OpenCapture throws from
/// `AVCapturePhotoOutput.validate(_:)` and delivers the error to
/// `photoOutput(_:didFinishCaptureFor:error:)` without capturing anything.
public enum PhotoSettingsError: DescribedError, Equatable, Sendable {
    /// The settings' `uniqueID` was already used by an earlier request.
    case settingsReused(uniqueID: Int64)
    /// The output is not in a running session with an enabled video input.
    case noActiveVideoConnection
    /// `format` holds both or neither of `AVVideoCodecKey` and `kCVPixelBufferPixelFormatTypeKey`.
    case formatNeedsExactlyOneOfCodecOrPixelFormat
    /// The codec is not in `availablePhotoCodecTypes`.
    case unsupportedCodec(String)
    /// The pixel format is not in `availablePhotoPixelFormatTypes`.
    case unsupportedPixelFormat(OSType)
    /// `format` has a key the output does not understand, or a compression property other than `AVVideoQualityKey`.
    case unsupportedFormatKey(String)
    /// `AVVideoQualityKey` outside 0…1.
    case invalidQuality(Double)
    /// `processedFileType` / `rawFileType` unavailable or incompatible with the format.
    case unsupportedFileType(String)
    /// `rawPhotoPixelFormatType` is not in `availableRawPhotoPixelFormatTypes`.
    case unsupportedRawPixelFormat(OSType)
    /// Bayer RAW with `photoQualityPrioritization` above `.speed`.
    case rawNeedsSpeedPrioritization
    /// Bayer RAW with automatic still-image stabilisation.
    case rawWithStillImageStabilization
    /// `photoQualityPrioritization` above the output's `maxPhotoQualityPrioritization`.
    case qualityPrioritizationAboveMaximum
    /// `flashMode` not in `supportedFlashModes`.
    case unsupportedFlashMode(AVCaptureDevice.FlashMode)
    /// `isHighResolutionPhotoEnabled` without `isHighResolutionCaptureEnabled` on the output.
    case highResolutionCaptureNotEnabled
    /// `maxPhotoDimensions` larger than the output's.
    case photoDimensionsAboveMaximum(width: Int32, height: Int32)
    /// `maxPhotoDimensions` (the settings' or the output's) that is not one of the active format's
    /// `supportedMaxPhotoDimensions` (the settings may also leave it 0×0: the output's default).
    case unsupportedPhotoDimensions(width: Int32, height: Int32)
    /// A feature requested in the settings that the output does not support or has not enabled.
    case featureNotEnabled(String)
    /// `metadata` has a top-level key that is not an ImageIO property key.
    case invalidMetadataKey(String)
    /// A `metadata` value the photo could not carry as given: a sub-dictionary that is not a dictionary, an orientation
    /// outside 1…8, a `{GPS}` location without latitude and longitude in range, text too long for the EXIF.
    case invalidMetadataValue(String)
    /// `previewPhotoFormat` malformed or unsupported.
    case invalidPreviewFormat(String)
    /// `embeddedThumbnailPhotoFormat` malformed or unsupported.
    case invalidThumbnailFormat(String)
    /// A bracket with no shots.
    case bracketIsEmpty
    /// A bracket mixing auto- and manual-exposure shots (or using the abstract base class).
    case bracketMixesSettingsTypes
    /// More shots than `maxBracketedCapturePhotoCount`.
    case bracketTooLarge(count: Int, maximum: Int)
    /// An auto-exposure shot's bias outside the device's `minExposureTargetBias…maxExposureTargetBias`.
    case bracketBiasOutOfRange(Float)
    /// A manual shot's ISO outside the active format's `minISO…maxISO`.
    case bracketISOOutOfRange(Float)
    /// A manual shot's duration (seconds) outside the active format's exposure range.
    case bracketDurationOutOfRange(Double)
    /// `isLensStabilizationEnabled` where `isLensStabilizationDuringBracketedCaptureSupported` is false.
    case lensStabilizationNotSupported
    /// Flash, still-image stabilisation or a Live Photo movie requested with a bracket.
    case bracketUnsupportedFeature(String)
    /// `isPortraitEffectsMatteDeliveryEnabled` without `isDepthDataDeliveryEnabled` (the matte is computed from depth).
    case portraitEffectsMatteNeedsDepth
    /// `isCameraCalibrationDataDeliveryEnabled` without `isDepthDataDeliveryEnabled`.
    case cameraCalibrationNeedsDepth
    /// Depth asked for with a RAW-only request: depth comes with the processed photo.
    case depthNeedsProcessedPhoto
    /// A Live Photo was requested while Live Photo capture is suspended.
    case livePhotoCaptureSuspended
    /// The Live Photo movie URL is not a file URL in a folder that exists.
    case invalidLivePhotoMovieURL(String)
    /// A `livePhotoMovieMetadata` item is the content identifier, has a key space movies cannot carry, or no
    /// text value.
    case invalidLivePhotoMovieMetadata(String)
    /// A Live Photo needs the session's frame stream, which is not running.
    case livePhotoStreamNotRunning

    public var description: String {
        switch self {
        case .settingsReused(let id):
            return "Settings may not be re-used (uniqueID \(id)); create new settings with AVCapturePhotoSettings(from:)"
        case .noActiveVideoConnection:
            return "No active and enabled video connection: add a device input and start the session"
        case .formatNeedsExactlyOneOfCodecOrPixelFormat:
            return "format must contain exactly one of AVVideoCodecKey and kCVPixelBufferPixelFormatTypeKey"
        case .unsupportedCodec(let codec):
            return "Unsupported codec '\(codec)': must be one of availablePhotoCodecTypes"
        case .unsupportedPixelFormat(let format):
            return "Unsupported pixel format \(FourCCText(format)): must be one of availablePhotoPixelFormatTypes"
        case .unsupportedFormatKey(let key):
            return "Unsupported key in format: \(key)"
        case .invalidQuality(let q):
            return "AVVideoQualityKey must be between 0.0 and 1.0, got \(q)"
        case .unsupportedFileType(let type):
            return "Unsupported file type \(type) for this format"
        case .unsupportedRawPixelFormat(let format):
            return "Unsupported rawPhotoPixelFormatType \(FourCCText(format)): must be one of availableRawPhotoPixelFormatTypes"
        case .rawNeedsSpeedPrioritization:
            return "Bayer RAW capture requires photoQualityPrioritization .speed"
        case .rawWithStillImageStabilization:
            return "Bayer RAW capture does not support autoStillImageStabilizationEnabled"
        case .qualityPrioritizationAboveMaximum:
            return "settings.photoQualityPrioritization must not be higher than self.maxPhotoQualityPrioritization"
        case .unsupportedFlashMode(let mode):
            return "Unsupported flashMode \(mode): must be one of supportedFlashModes"
        case .highResolutionCaptureNotEnabled:
            return "highResolutionPhotoEnabled may not be set unless highResolutionCaptureEnabled is set on the output"
        case .photoDimensionsAboveMaximum(let width, let height):
            return "settings.maxPhotoDimensions \(width)x\(height) must not exceed self.maxPhotoDimensions"
        case .unsupportedPhotoDimensions(let width, let height):
            return "maxPhotoDimensions \(width)x\(height) is not one of the active format's supportedMaxPhotoDimensions"
        case .featureNotEnabled(let feature):
            return "\(feature) is not supported or not enabled on the photo output"
        case .invalidMetadataKey(let key):
            return "metadata key \"\(key)\" is not an ImageIO CGImageProperties key"
        case .invalidMetadataValue(let why):
            return "metadata: \(why)"
        case .invalidPreviewFormat(let why):
            return "Invalid previewPhotoFormat: \(why)"
        case .invalidThumbnailFormat(let why):
            return "Invalid embeddedThumbnailPhotoFormat: \(why)"
        case .bracketIsEmpty:
            return "bracketedSettings may not be empty"
        case .bracketMixesSettingsTypes:
            return "bracketedSettings must all be AVCaptureAutoExposureBracketedStillImageSettings or all AVCaptureManualExposureBracketedStillImageSettings"
        case .bracketTooLarge(let count, let maximum):
            return "A bracket of \(count) exceeds maxBracketedCapturePhotoCount (\(maximum))"
        case .bracketBiasOutOfRange(let bias):
            return "exposureTargetBias \(bias) is outside the device's minExposureTargetBias…maxExposureTargetBias"
        case .bracketISOOutOfRange(let iso):
            return "ISO \(iso) is outside the active format's minISO…maxISO"
        case .bracketDurationOutOfRange(let seconds):
            return "exposureDuration \(seconds) s is outside the active format's minExposureDuration…maxExposureDuration"
        case .lensStabilizationNotSupported:
            return "lensStabilizationEnabled requires lensStabilizationDuringBracketedCaptureSupported"
        case .bracketUnsupportedFeature(let feature):
            return "AVCapturePhotoBracketSettings do not support \(feature)"
        case .portraitEffectsMatteNeedsDepth:
            return "isPortraitEffectsMatteDeliveryEnabled requires isDepthDataDeliveryEnabled"
        case .cameraCalibrationNeedsDepth:
            return "isCameraCalibrationDataDeliveryEnabled requires isDepthDataDeliveryEnabled"
        case .depthNeedsProcessedPhoto:
            return "depth data is delivered with a processed photo; a RAW-only request cannot have it"
        case .livePhotoCaptureSuspended:
            return "Live Photo capture is suspended (isLivePhotoCaptureSuspended)"
        case .invalidLivePhotoMovieURL(let url):
            return "livePhotoMovieFileURL \(url) is not a file URL in an existing folder"
        case .invalidLivePhotoMovieMetadata(let why):
            return "livePhotoMovieMetadata: \(why)"
        case .livePhotoStreamNotRunning:
            return "a Live Photo needs the running session's frame stream"
        }
    }
}

/// An OSType as 'abcd' when printable (FourCC's own text), else its number.
func FourCCText(_ code: OSType) -> String {
    let text = FourCC(rawValue: code).description
    return text == String(code) ? text : "'" + text + "'"
}
