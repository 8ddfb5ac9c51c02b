import CaptureCore
import Foundation

/// A request for a bracket: several shots taken back to back, each with its own exposure
/// (Apple's `AVCapturePhotoBracketSettings`). Brackets support neither flash, still-image
/// stabilisation nor Live Photos. Apple raises on an empty or mixed array at creation; OpenCapture
/// reports it from `validate(_:)` and `capturePhoto`.
///
/// `@unchecked Sendable`: `isLensStabilizationEnabled` is `@Locked`; the bracket array is immutable.
public final class AVCapturePhotoBracketSettings: AVCapturePhotoSettings, @unchecked Sendable {
    /// The shots, in order; never nil.
    public let bracketedSettings: [AVCaptureBracketedStillImageSettings]
    /// Keep optical stabilisation on across the bracket (needs `isLensStabilizationDuringBracketedCaptureSupported`).
    @Locked public var isLensStabilizationEnabled = false

    /// A bracket with an optional RAW format (0 = none) and processed format (nil = JPEG when no RAW).
    public convenience init(rawPixelFormatType: OSType, processedFormat: [String: Any]?,
                            bracketedSettings: [AVCaptureBracketedStillImageSettings]) {
        self.init(rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: processedFormat,
                  processedFileType: nil, bracketedSettings: bracketedSettings)
    }

    /// A bracket with explicit file types.
    public init(rawPixelFormatType: OSType, rawFileType: AVFileType?, processedFormat: [String: Any]?,
                processedFileType: AVFileType?, bracketedSettings: [AVCaptureBracketedStillImageSettings]) {
        self.bracketedSettings = bracketedSettings
        super.init(rawPixelFormatType: rawPixelFormatType, rawFileType: rawFileType, processedFormat: processedFormat,
                   processedFileType: processedFileType)
        isAutoStillImageStabilizationEnabled = false
        isAutoRedEyeReductionEnabled = false
    }

    private init(copying other: AVCapturePhotoBracketSettings) {
        bracketedSettings = other.bracketedSettings
        super.init(copyingSettings: other)
        isLensStabilizationEnabled = other.isLensStabilizationEnabled
    }

    /// Exact copy with the same `uniqueID` and the same bracket entries (NSCopying).
    public override func copy(with zone: NSZone? = nil) -> Any {
        AVCapturePhotoBracketSettings(copying: self)
    }
}
