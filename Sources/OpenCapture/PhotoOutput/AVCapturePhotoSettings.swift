import Foundation

/// Everything one photo request asks for (Apple's `AVCapturePhotoSettings`). Each instance has a
/// process-unique `uniqueID`; a settings object may be used for one capture only, so clone it
/// with `init(from:)` to capture again.
public class AVCapturePhotoSettings: NSObject, NSCopying, @unchecked Sendable {
    private static let idLock = NSLock()
    nonisolated(unsafe) private static var lastID: Int64 = 0

    static func nextUniqueID() -> Int64 {
        idLock.lock(); defer { idLock.unlock() }
        lastID += 1
        return lastID
    }

    /// Unique for the process; a clone made with `init(from:)` gets a new one.
    public let uniqueID: Int64
    /// The processed-photo format: `AVVideoCodecKey` (+ `AVVideoCompressionPropertiesKey` with
    /// `AVVideoQualityKey`) or `kCVPixelBufferPixelFormatTypeKey`; nil when RAW-only.
    public let format: [String: Any]?
    /// File type of the processed photo (e.g. `.jpg`), nil for the default.
    public let processedFileType: AVFileType?
    /// Bayer RAW format, 0 for none (RAW arrives in a later OpenCapture release).
    public let rawPhotoPixelFormatType: OSType
    public let rawFileType: AVFileType?

    /// Flash for this photo (default `.off`; the device's own flash mode is ignored).
    public var flashMode: AVCaptureDevice.FlashMode = .off
    /// Red-eye reduction when the flash fires (default true).
    public var isAutoRedEyeReductionEnabled = true
    /// Speed versus quality (default `.balanced`); may not exceed the output's maximum.
    public var photoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization = .balanced
    /// Deprecated in iOS 13: allow multi-frame still-image stabilisation in low light (default true).
    public var isAutoStillImageStabilizationEnabled = true
    public var isAutoVirtualDeviceFusionEnabled = true
    public var isAutoDualCameraFusionEnabled = true
    public var isAutoContentAwareDistortionCorrectionEnabled = false
    /// Deprecated in iOS 16: deliver the format's high-resolution still size.
    public var isHighResolutionPhotoEnabled = false
    /// Largest photo size for this request ({0,0} = the output's default); must not exceed the output's.
    public var maxPhotoDimensions = CMVideoDimensions(width: 0, height: 0)

    public var isDepthDataDeliveryEnabled = false
    public var embedsDepthDataInPhoto = true
    public var isDepthDataFiltered = true
    public var isCameraCalibrationDataDeliveryEnabled = false
    public var isPortraitEffectsMatteDeliveryEnabled = false
    public var embedsPortraitEffectsMatteInPhoto = true
    public var isShutterSoundSuppressionEnabled = false
    public var isConstantColorEnabled = false
    public var isConstantColorFallbackPhotoDeliveryEnabled = false

    /// Extra ImageIO metadata merged over the written file's own (top-level keys must be ImageIO property keys).
    public var metadata: [String: Any] = [:]

    /// Live Photo movie destination (Live Photos arrive in a later OpenCapture release).
    public var livePhotoMovieFileURL: URL?
    public var livePhotoVideoCodecType: AVVideoCodecType = .h264

    /// Preview formats in order of preference (fewest conversions first).
    public var availablePreviewPhotoPixelFormatTypes: [OSType] {
        [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange]
    }
    /// The Objective-C spelling of `availablePreviewPhotoPixelFormatTypes`, as AVCam uses it.
    public var __availablePreviewPhotoPixelFormatTypes: [NSNumber] {
        availablePreviewPhotoPixelFormatTypes.map { NSNumber(value: $0) }
    }
    /// `kCVPixelBufferPixelFormatTypeKey` plus optional `kCVPixelBufferWidthKey`/`HeightKey` (both or neither):
    /// a preview fitted inside that box, keeping the photo's aspect ratio.
    public var previewPhotoFormat: [String: Any]?

    /// Thumbnail codecs for `embeddedThumbnailPhotoFormat`.
    public var availableEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] { [.jpeg] }
    /// `AVVideoCodecKey` plus optional `AVVideoWidthKey`/`AVVideoHeightKey`: a thumbnail embedded in the file.
    public var embeddedThumbnailPhotoFormat: [String: Any]?

    /// Codecs for `rawEmbeddedThumbnailPhotoFormat`.
    public var availableRawEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] { rawPhotoPixelFormatType == 0 ? [] : [.jpeg] }
    /// `AVVideoCodecKey` plus optional width and height: the preview image stored in the DNG (IFD0),
    /// up to 1024 pixels (written uncompressed, as DNG previews may be).
    public var rawEmbeddedThumbnailPhotoFormat: [String: Any]?

    /// JPEG photo, balanced quality, flash off.
    public override init() {
        uniqueID = AVCapturePhotoSettings.nextUniqueID()
        format = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        processedFileType = nil
        rawPhotoPixelFormatType = 0
        rawFileType = nil
        super.init()
    }

    /// A processed photo in the given format; nil or empty means JPEG.
    public init(format: [String: Any]?) {
        uniqueID = AVCapturePhotoSettings.nextUniqueID()
        self.format = (format?.isEmpty ?? true) ? [AVVideoCodecKey: AVVideoCodecType.jpeg] : format
        processedFileType = nil
        rawPhotoPixelFormatType = 0
        rawFileType = nil
        super.init()
    }

    /// RAW only (0 = no RAW, which gives a JPEG photo as Apple does).
    public convenience init(rawPixelFormatType: OSType) {
        self.init(rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: nil, processedFileType: nil)
    }

    /// RAW plus an optional processed photo.
    public convenience init(rawPixelFormatType: OSType, processedFormat: [String: Any]?) {
        self.init(rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: processedFormat, processedFileType: nil)
    }

    /// RAW and processed formats with explicit file types (0 = no RAW).
    public init(rawPixelFormatType: OSType, rawFileType: AVFileType?, processedFormat: [String: Any]?, processedFileType: AVFileType?) {
        uniqueID = AVCapturePhotoSettings.nextUniqueID()
        if rawPixelFormatType == 0 && (processedFormat?.isEmpty ?? true) {
            format = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        } else {
            format = processedFormat
        }
        self.processedFileType = processedFileType
        self.rawPhotoPixelFormatType = rawPixelFormatType
        self.rawFileType = rawFileType
        super.init()
        if rawPixelFormatType != 0 {
            // Apple's defaults for RAW: no still-image stabilisation, and Bayer RAW is a .speed capture.
            isAutoStillImageStabilizationEnabled = false
            photoQualityPrioritization = .speed
            if processedFormat == nil { isAutoRedEyeReductionEnabled = false }
        }
    }

    /// A copy of every setting with a new `uniqueID`.
    public init(from photoSettings: AVCapturePhotoSettings) {
        uniqueID = AVCapturePhotoSettings.nextUniqueID()
        format = photoSettings.format
        processedFileType = photoSettings.processedFileType
        rawPhotoPixelFormatType = photoSettings.rawPhotoPixelFormatType
        rawFileType = photoSettings.rawFileType
        super.init()
        copyMutableSettings(from: photoSettings)
    }

    /// Exact copy, same `uniqueID` (NSCopying); subclasses call it from their own copies.
    init(copyingSettings other: AVCapturePhotoSettings) {
        uniqueID = other.uniqueID
        format = other.format
        processedFileType = other.processedFileType
        rawPhotoPixelFormatType = other.rawPhotoPixelFormatType
        rawFileType = other.rawFileType
        super.init()
        copyMutableSettings(from: other)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        AVCapturePhotoSettings(copyingSettings: self)
    }

    func copyMutableSettings(from s: AVCapturePhotoSettings) {
        flashMode = s.flashMode
        isAutoRedEyeReductionEnabled = s.isAutoRedEyeReductionEnabled
        photoQualityPrioritization = s.photoQualityPrioritization
        isAutoStillImageStabilizationEnabled = s.isAutoStillImageStabilizationEnabled
        isAutoVirtualDeviceFusionEnabled = s.isAutoVirtualDeviceFusionEnabled
        isAutoDualCameraFusionEnabled = s.isAutoDualCameraFusionEnabled
        isAutoContentAwareDistortionCorrectionEnabled = s.isAutoContentAwareDistortionCorrectionEnabled
        isHighResolutionPhotoEnabled = s.isHighResolutionPhotoEnabled
        maxPhotoDimensions = s.maxPhotoDimensions
        isDepthDataDeliveryEnabled = s.isDepthDataDeliveryEnabled
        embedsDepthDataInPhoto = s.embedsDepthDataInPhoto
        isDepthDataFiltered = s.isDepthDataFiltered
        isCameraCalibrationDataDeliveryEnabled = s.isCameraCalibrationDataDeliveryEnabled
        isPortraitEffectsMatteDeliveryEnabled = s.isPortraitEffectsMatteDeliveryEnabled
        embedsPortraitEffectsMatteInPhoto = s.embedsPortraitEffectsMatteInPhoto
        isShutterSoundSuppressionEnabled = s.isShutterSoundSuppressionEnabled
        isConstantColorEnabled = s.isConstantColorEnabled
        isConstantColorFallbackPhotoDeliveryEnabled = s.isConstantColorFallbackPhotoDeliveryEnabled
        metadata = s.metadata
        livePhotoMovieFileURL = s.livePhotoMovieFileURL
        livePhotoVideoCodecType = s.livePhotoVideoCodecType
        previewPhotoFormat = s.previewPhotoFormat
        embeddedThumbnailPhotoFormat = s.embeddedThumbnailPhotoFormat
        rawEmbeddedThumbnailPhotoFormat = s.rawEmbeddedThumbnailPhotoFormat
    }
}
