import CaptureCore
import Foundation

/// Everything one photo request asks for (Apple's `AVCapturePhotoSettings`). Each instance has a
/// process-unique `uniqueID`; a settings object may be used for one capture only, so clone it
/// with `init(from:)` to capture again.
///
/// `@unchecked Sendable`: every mutable setting is `@Locked` (guarded by its own lock); the rest is immutable.
public class AVCapturePhotoSettings: NSObject, NSCopying, @unchecked Sendable {
    private static let lastID = Locked<Int64>(0)

    static func nextUniqueID() -> Int64 {
        lastID.withLock { id in
            id += 1
            return id
        }
    }

    /// Unique for the process; a clone made with `init(from:)` gets a new one.
    public let uniqueID: Int64
    /// The processed-photo format: `AVVideoCodecKey` (+ `AVVideoCompressionPropertiesKey` with
    /// `AVVideoQualityKey`) or `kCVPixelBufferPixelFormatTypeKey`; nil when RAW-only.
    public let format: [String: Any]?
    /// File type of the processed photo (e.g. `.jpg`), nil for the default.
    public let processedFileType: AVFileType?
    /// Bayer RAW format (one of `availableRawPhotoPixelFormatTypes`), 0 for none.
    public let rawPhotoPixelFormatType: OSType
    public let rawFileType: AVFileType?

    /// Flash for this photo (default `.off`; the device's own flash mode is ignored).
    @Locked public var flashMode: AVCaptureDevice.FlashMode = .off
    /// Red-eye reduction when the flash fires (default true). The simulated flash gives no one red eyes, so this changes
    /// no pixel: it sets the resolved `isRedEyeReductionEnabled` (when the flash fires) and the EXIF Flash tag's red-eye bit.
    @Locked public var isAutoRedEyeReductionEnabled = true
    /// Speed versus quality (default `.balanced`); may not exceed the output's maximum.
    @Locked public var photoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization = .balanced
    /// Deprecated in iOS 13: allow multi-frame still-image stabilisation in low light (default true).
    @Locked public var isAutoStillImageStabilizationEnabled = true
    /// Kept and copied, but changes nothing: virtual-device fusion is not simulated (the resolved
    /// `isVirtualDeviceFusionEnabled` is always false).
    @Locked public var isAutoVirtualDeviceFusionEnabled = true
    /// The deprecated name of `isAutoVirtualDeviceFusionEnabled`'s setting; kept and copied, changes nothing.
    @Locked public var isAutoDualCameraFusionEnabled = true
    /// Content-aware distortion correction is not simulated: `true` is refused (`PhotoSettingsError.featureNotEnabled`).
    @Locked public var isAutoContentAwareDistortionCorrectionEnabled = false
    /// Deprecated in iOS 16: deliver the format's high-resolution still size.
    @Locked public var isHighResolutionPhotoEnabled = false
    /// Largest photo size for this request, one of the active format's `supportedMaxPhotoDimensions`; {0,0} (what new
    /// settings read; Apple's read the smallest supported size) takes the format's own size. Must not exceed the output's.
    @Locked public var maxPhotoDimensions = CMVideoDimensions(width: 0, height: 0)

    /// Deliver `AVCapturePhoto.depthData` (default false); needs the output's `isDepthDataDeliveryEnabled`.
    /// Not allowed in a bracket or a RAW-only request.
    @Locked public var isDepthDataDeliveryEnabled = false
    /// Embed the depth in the HEIC/JPEG file (default true; ignored without depth delivery or for
    /// uncompressed photos, which have no file to embed into until `fileDataRepresentation()` writes a TIFF without it).
    @Locked public var embedsDepthDataInPhoto = true
    /// Fill holes and smooth the depth (default true); false leaves missing values as NaN.
    @Locked public var isDepthDataFiltered = true
    /// Deliver `AVCapturePhoto.cameraCalibrationData` (default false); needs depth delivery.
    @Locked public var isCameraCalibrationDataDeliveryEnabled = false
    /// Deliver `AVCapturePhoto.portraitEffectsMatte` (default false); needs depth delivery and the
    /// output's `isPortraitEffectsMatteDeliveryEnabled`. Nil in the photo when no subject is found.
    @Locked public var isPortraitEffectsMatteDeliveryEnabled = false
    /// Embed the matte in the HEIC/JPEG file (default true; ignored without matte delivery).
    @Locked public var embedsPortraitEffectsMatteInPhoto = true
    @Locked public var isShutterSoundSuppressionEnabled = false
    @Locked public var isConstantColorEnabled = false
    @Locked public var isConstantColorFallbackPhotoDeliveryEnabled = false

    /// Extra ImageIO metadata merged over the written file's own (top-level keys must be ImageIO property keys).
    @Locked public var metadata: [String: Any] = [:]

    /// Where the Live Photo's movie goes (a file URL in an existing folder); nil for a still photo. Needs
    /// `isLivePhotoCaptureEnabled` on the output.
    @Locked public var livePhotoMovieFileURL: URL? = nil
    /// The Live Photo movie's codec: one of the output's `availableLivePhotoVideoCodecTypes` (H.264 by default).
    @Locked public var livePhotoVideoCodecType: AVVideoCodecType = .h264
    private let storedMovieMetadata = Locked<[AVMetadataItem]>([])
    /// Metadata for the Live Photo movie, written as QuickTime `mdta` keys (common keys mapped to theirs) over
    /// the defaults (make, model, software, creation date); setting nil gives `[]`. The content identifier is the
    /// system's to write: an item with it is refused, as Apple refuses it.
    public var livePhotoMovieMetadata: [AVMetadataItem]! {
        get { storedMovieMetadata.wrappedValue }
        set { storedMovieMetadata.wrappedValue = newValue ?? [] }
    }

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
    @Locked public var previewPhotoFormat: [String: Any]? = nil

    /// Thumbnail codecs for `embeddedThumbnailPhotoFormat`.
    public var availableEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] { [.jpeg] }
    /// `AVVideoCodecKey` plus optional `AVVideoWidthKey`/`AVVideoHeightKey`: a thumbnail embedded in the file.
    @Locked public var embeddedThumbnailPhotoFormat: [String: Any]? = nil

    /// Codecs for `rawEmbeddedThumbnailPhotoFormat`.
    public var availableRawEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] { rawPhotoPixelFormatType == 0 ? [] : [.jpeg] }
    /// `AVVideoCodecKey` plus optional width and height: the preview image stored in the DNG (IFD0),
    /// up to 1024 pixels (written uncompressed, as DNG previews may be).
    @Locked public var rawEmbeddedThumbnailPhotoFormat: [String: Any]? = nil

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
        livePhotoMovieMetadata = s.livePhotoMovieMetadata.map { $0.copy() as! AVMetadataItem }
        previewPhotoFormat = s.previewPhotoFormat
        embeddedThumbnailPhotoFormat = s.embeddedThumbnailPhotoFormat
        rawEmbeddedThumbnailPhotoFormat = s.rawEmbeddedThumbnailPhotoFormat
    }
}
