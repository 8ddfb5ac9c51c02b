import CameraSimulation
import CaptureCore
import Foundation

/// One accepted photo request, frozen at the call: the device's state, what to deliver, and the
/// capture's date. Immutable and `Sendable`; the engine reads nothing else.
package struct CaptureRequest: Sendable {
    /// The settings' unique ID.
    package var id: Int64
    /// 1-based position among the output's accepted requests; seeds noise and hand shake.
    package var index: UInt64
    package var device: DeviceSnapshot
    /// Size of the delivered photos.
    package var photoSize: Size
    /// The processed photo of each shot; nil for RAW-only requests.
    package var processed: ProcessedDelivery?
    /// The RAW photo of each shot; nil without RAW.
    package var raw: RawDelivery?
    package var preview: PreviewDelivery?
    /// Embedded thumbnail size (JPEG/HEIC only).
    package var thumbnailSize: Size?
    /// EXIF orientation (1…8) from the connection's rotation and mirroring.
    package var orientation: Int
    package var quality: QualityPriority
    package var flash: FlashPolicy
    package var redEyeReduction: Bool
    /// Whether multi-frame still-image stabilisation may be used in low light.
    package var allowsStillImageStabilization: Bool
    /// The bracket, for bracketed requests.
    package var bracket: BracketRequest?
    /// Depth (and matte) with each processed photo; nil without depth.
    package var depth: DepthDelivery?
    /// The request's metadata overrides for the file.
    package var metadata: MetadataOverrides
    /// When the capture was requested, from the session's clock, and that clock's time zone.
    package var captureDate: Date
    package var timeZoneOffsetSeconds: Int
    /// The session clock's origin (uptime nanoseconds): photo timestamps count from it.
    package var clockOrigin: UInt64
    /// Live exposure timing while the stream runs (zero shutter lag or not); nil keeps the synthetic clock.
    package var liveTiming: LiveTiming?
    /// The Live Photo movie to record around this photo, if any.
    package var livePhoto: LivePhotoDelivery?

    package init(id: Int64, index: UInt64, device: DeviceSnapshot, photoSize: Size, processed: ProcessedDelivery?,
                 raw: RawDelivery?, preview: PreviewDelivery?, thumbnailSize: Size?, orientation: Int,
                 quality: QualityPriority, flash: FlashPolicy, redEyeReduction: Bool, allowsStillImageStabilization: Bool,
                 bracket: BracketRequest?, metadata: MetadataOverrides, captureDate: Date, timeZoneOffsetSeconds: Int,
                 clockOrigin: UInt64, depth: DepthDelivery? = nil) {
        self.id = id
        self.index = index
        self.device = device
        self.photoSize = photoSize
        self.processed = processed
        self.raw = raw
        self.preview = preview
        self.thumbnailSize = thumbnailSize
        self.orientation = orientation
        self.quality = quality
        self.flash = flash
        self.redEyeReduction = redEyeReduction
        self.allowsStillImageStabilization = allowsStillImageStabilization
        self.bracket = bracket
        self.metadata = metadata
        self.captureDate = captureDate
        self.timeZoneOffsetSeconds = timeZoneOffsetSeconds
        self.clockOrigin = clockOrigin
        self.depth = depth
    }

    /// The colour space photos are rendered and tagged in, from the device snapshot.
    package var colorSpace: ColorSpace { device.colorSpace }

    /// The sensor area read out for this request's photo size.
    package var readoutSize: Size { device.module.readoutSize(forPhoto: photoSize) }

    /// Photos delivered per shot: one RAW and/or one processed.
    package var photosPerShot: Int { (raw == nil ? 0 : 1) + (processed == nil ? 0 : 1) }
}
