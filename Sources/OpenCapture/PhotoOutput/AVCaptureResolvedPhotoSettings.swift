import Foundation

/// What the output decided for one request: sizes, flash, stabilisation, photo count
/// (Apple's `AVCaptureResolvedPhotoSettings`). Immutable; every delegate callback of a request
/// receives the same instance. Apple's type cannot be constructed; OpenCapture adds a public
/// initialiser so tests can build fakes.
///
/// `@unchecked Sendable`: every stored property is an immutable `let`.
public final class AVCaptureResolvedPhotoSettings: NSObject, @unchecked Sendable {
    /// The request's `AVCapturePhotoSettings.uniqueID`.
    public let uniqueID: Int64
    /// Processed photo size ({0,0} when RAW-only or refused).
    public let photoDimensions: CMVideoDimensions
    /// RAW photo size ({0,0} without RAW).
    public let rawPhotoDimensions: CMVideoDimensions
    public let previewDimensions: CMVideoDimensions
    public let embeddedThumbnailDimensions: CMVideoDimensions
    public let rawEmbeddedThumbnailDimensions: CMVideoDimensions
    public let livePhotoMovieDimensions: CMVideoDimensions
    /// Size of the portrait effects matte ({0,0} without one): half the photo's width and height.
    public let portraitEffectsMatteDimensions: CMVideoDimensions
    /// OpenCapture addition: size of the depth map ({0,0} without depth); Apple reports it only
    /// through the delivered `AVDepthData`.
    public let depthDataDimensions: CMVideoDimensions
    public let deferredPhotoProxyDimensions: CMVideoDimensions
    /// Whether the flash fires (`.auto` resolved against the scene).
    public let isFlashEnabled: Bool
    public let isRedEyeReductionEnabled: Bool
    /// Whether several exposures are fused to lower noise (deprecated in iOS 13, still reported).
    public let isStillImageStabilizationEnabled: Bool
    public let isVirtualDeviceFusionEnabled: Bool
    public let isDualCameraFusionEnabled: Bool
    public let isContentAwareDistortionCorrectionEnabled: Bool
    public let isFastCapturePrioritizationEnabled: Bool
    /// How many times `photoOutput(_:didFinishProcessingPhoto:error:)` will be called.
    public let expectedPhotoCount: Int
    /// Expected processing time: start = minimum, start + duration = maximum.
    public let photoProcessingTimeRange: CMTimeRange

    /// OpenCapture addition (Apple's type has no public initialiser): builds resolved settings, e.g. for fakes in tests.
    public init(uniqueID: Int64,
                photoDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                rawPhotoDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                previewDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                embeddedThumbnailDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                rawEmbeddedThumbnailDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                livePhotoMovieDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                portraitEffectsMatteDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                depthDataDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                deferredPhotoProxyDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
                isFlashEnabled: Bool = false,
                isRedEyeReductionEnabled: Bool = false,
                isStillImageStabilizationEnabled: Bool = false,
                isVirtualDeviceFusionEnabled: Bool = false,
                isContentAwareDistortionCorrectionEnabled: Bool = false,
                isFastCapturePrioritizationEnabled: Bool = false,
                expectedPhotoCount: Int = 1,
                photoProcessingTimeRange: CMTimeRange = CMTimeRange(start: .zero, duration: .zero)) {
        self.uniqueID = uniqueID
        self.photoDimensions = photoDimensions
        self.rawPhotoDimensions = rawPhotoDimensions
        self.previewDimensions = previewDimensions
        self.embeddedThumbnailDimensions = embeddedThumbnailDimensions
        self.rawEmbeddedThumbnailDimensions = rawEmbeddedThumbnailDimensions
        self.livePhotoMovieDimensions = livePhotoMovieDimensions
        self.portraitEffectsMatteDimensions = portraitEffectsMatteDimensions
        self.depthDataDimensions = depthDataDimensions
        self.deferredPhotoProxyDimensions = deferredPhotoProxyDimensions
        self.isFlashEnabled = isFlashEnabled
        self.isRedEyeReductionEnabled = isRedEyeReductionEnabled
        self.isStillImageStabilizationEnabled = isStillImageStabilizationEnabled
        self.isVirtualDeviceFusionEnabled = isVirtualDeviceFusionEnabled
        self.isDualCameraFusionEnabled = isVirtualDeviceFusionEnabled
        self.isContentAwareDistortionCorrectionEnabled = isContentAwareDistortionCorrectionEnabled
        self.isFastCapturePrioritizationEnabled = isFastCapturePrioritizationEnabled
        self.expectedPhotoCount = expectedPhotoCount
        self.photoProcessingTimeRange = photoProcessingTimeRange
        super.init()
    }

    public override var description: String {
        "<AVCaptureResolvedPhotoSettings uniqueID \(uniqueID), photo \(photoDimensions.width)x\(photoDimensions.height), "
            + "flash \(isFlashEnabled), SIS \(isStillImageStabilizationEnabled), expectedPhotoCount \(expectedPhotoCount)>"
    }
}
