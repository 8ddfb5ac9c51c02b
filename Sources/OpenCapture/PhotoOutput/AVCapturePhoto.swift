import Foundation

/// One delivered photo (Apple's `AVCapturePhoto`): the encoded file data or pixel buffer, its
/// preview, metadata, and where it sits in the request. Apple's type cannot be constructed;
/// OpenCapture adds a public initialiser so apps can build fakes in tests.
///
/// `@unchecked Sendable`: every stored property is an immutable `let` (the providers are `@Sendable` closures).
public class AVCapturePhoto: NSObject, @unchecked Sendable {
    /// Start of the exposure on the session clock (invalid when the photo carries an error).
    public let timestamp: CMTime
    /// True for a Bayer RAW photo.
    public let isRawPhoto: Bool
    /// Uncompressed or RAW pixels; nil for compressed (JPEG) photos.
    public let pixelBuffer: CVPixelBuffer?
    /// The preview requested with `previewPhotoFormat`, if any.
    public let previewPixelBuffer: CVPixelBuffer?
    /// The thumbnail format used for the embedded thumbnail, if any.
    public let embeddedThumbnailPhotoFormat: [String: Any]?
    /// ImageIO-style metadata: `Orientation`, `{Exif}`, `{TIFF}`, `{MakerApple}` (the Live Photo content identifier as
    /// "17", with MakerNoteVersion "1", when the photo has one), and what the settings' `metadata` added. The entries are
    /// the EXIF fields the photo's file carries, by ImageIO's names (ExposureTime, ShutterSpeedValue and ApertureValue
    /// in APEX, SubjectArea in stored pixels, SubjectDistance, the Subsec and Offset times…), with the file's values;
    /// numbers are `NSNumber`s, as ImageIO's are.
    public let metadata: [String: Any]
    /// The same object every callback of the request receives.
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// 1-based index of this photo among `resolvedSettings.expectedPhotoCount`.
    public let photoCount: Int
    public let sourceDeviceType: AVCaptureDevice.DeviceType?
    /// The bracket entry this photo was exposed with; nil outside a bracket.
    public let bracketSettings: AVCaptureBracketedStillImageSettings?
    /// 1-based position within a bracket; 0 outside a bracket.
    public let sequenceCount: Int
    public let lensStabilizationStatus: AVCaptureDevice.LensStabilizationStatus
    /// The depth measured with the photo (`isDepthDataDeliveryEnabled`), in the device's active depth
    /// format; nil otherwise and for RAW photos.
    public let depthData: AVDepthData?
    /// The portrait effects matte (`isPortraitEffectsMatteDeliveryEnabled`); nil when not asked for or
    /// when no subject was found, as on iOS.
    public let portraitEffectsMatte: AVPortraitEffectsMatte?
    /// The photo camera's calibration (`isCameraCalibrationDataDeliveryEnabled`); nil otherwise.
    public let cameraCalibrationData: AVCameraCalibrationData?

    private let fileData: Data?
    private let fileDataProvider: (@Sendable () -> Data?)?
    private let groundTruthProvider: (@Sendable () -> SimulationGroundTruth?)?

    /// OpenCapture addition: builds a photo, e.g. a fake for tests. `fileData` is what
    /// `fileDataRepresentation()` returns.
    public convenience init(timestamp: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, photoCount: Int = 1,
                fileData: Data? = nil, pixelBuffer: CVPixelBuffer? = nil, previewPixelBuffer: CVPixelBuffer? = nil,
                embeddedThumbnailPhotoFormat: [String: Any]? = nil, metadata: [String: Any] = [:], isRawPhoto: Bool = false,
                sourceDeviceType: AVCaptureDevice.DeviceType? = nil, bracketSettings: AVCaptureBracketedStillImageSettings? = nil,
                sequenceCount: Int = 0, lensStabilizationStatus: AVCaptureDevice.LensStabilizationStatus = .unsupported,
                depthData: AVDepthData? = nil, portraitEffectsMatte: AVPortraitEffectsMatte? = nil,
                cameraCalibrationData: AVCameraCalibrationData? = nil) {
        self.init(timestamp: timestamp, resolvedSettings: resolvedSettings, photoCount: photoCount, isRawPhoto: isRawPhoto,
                  fileData: fileData, fileDataProvider: nil, pixelBuffer: pixelBuffer, previewPixelBuffer: previewPixelBuffer,
                  embeddedThumbnailPhotoFormat: embeddedThumbnailPhotoFormat, metadata: metadata,
                  sourceDeviceType: sourceDeviceType, bracketSettings: bracketSettings, sequenceCount: sequenceCount,
                  lensStabilizationStatus: lensStabilizationStatus, depthData: depthData,
                  portraitEffectsMatte: portraitEffectsMatte, cameraCalibrationData: cameraCalibrationData, groundTruth: nil)
    }

    init(timestamp: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, photoCount: Int, isRawPhoto: Bool, fileData: Data?,
         fileDataProvider: (@Sendable () -> Data?)?, pixelBuffer: CVPixelBuffer?, previewPixelBuffer: CVPixelBuffer?, embeddedThumbnailPhotoFormat: [String: Any]?,
         metadata: [String: Any], sourceDeviceType: AVCaptureDevice.DeviceType?,
         bracketSettings: AVCaptureBracketedStillImageSettings?, sequenceCount: Int,
         lensStabilizationStatus: AVCaptureDevice.LensStabilizationStatus, depthData: AVDepthData? = nil,
         portraitEffectsMatte: AVPortraitEffectsMatte? = nil, cameraCalibrationData: AVCameraCalibrationData? = nil,
         groundTruth: (@Sendable () -> SimulationGroundTruth?)?) {
        self.timestamp = timestamp
        self.resolvedSettings = resolvedSettings
        self.photoCount = photoCount
        self.fileData = fileData
        self.pixelBuffer = pixelBuffer
        self.previewPixelBuffer = previewPixelBuffer
        self.embeddedThumbnailPhotoFormat = embeddedThumbnailPhotoFormat
        self.metadata = metadata
        self.isRawPhoto = isRawPhoto
        self.sourceDeviceType = sourceDeviceType
        self.bracketSettings = bracketSettings
        self.sequenceCount = sequenceCount
        self.lensStabilizationStatus = lensStabilizationStatus
        self.depthData = depthData
        self.portraitEffectsMatte = portraitEffectsMatte
        self.cameraCalibrationData = cameraCalibrationData
        self.groundTruthProvider = groundTruth
        self.fileDataProvider = fileDataProvider
        super.init()
    }

    /// The photo as a file: JPEG for the JPEG codec, an uncompressed TIFF for pixel-buffer photos,
    /// a DNG for RAW photos (TIFF and DNG are written on demand); nil for photos with errors.
    public func fileDataRepresentation() -> Data? { fileData ?? fileDataProvider?() }

    /// OpenCapture addition: the simulator's ground truth for this photo (nil for fakes and replayed frames).
    /// Computed on demand; costs one noise-free render of the frame.
    public func simulationGroundTruth() -> SimulationGroundTruth? { groundTruthProvider?() ?? nil }
}
