import CameraSimulation
import CaptureCore
import Foundation

/// How the processed photo is delivered.
enum ProcessedOutput: Sendable {
    case jpeg(quality: Double)
    case hevc(quality: Double)
    case uncompressed(pixelFormat: OSType)
}

struct PreviewRequest: Sendable {
    var pixelFormat: OSType
    var size: Size
}

struct ThumbnailRequest: Sendable {
    var size: Size
}

/// The RAW photo of each shot: a Bayer buffer and a DNG.
struct RawRequest: Sendable {
    var pixelFormat: OSType
    /// Size of the DNG's preview (IFD0), from `rawEmbeddedThumbnailPhotoFormat`; nil = a small default preview.
    var thumbnail: Size?
}

/// What validation learned about the output and device for one request.
struct CaptureContext: @unchecked Sendable {
    let device: AVCaptureDevice
    let session: AVCaptureSession
    let format: AVCaptureDevice.Format
    let photoSize: Size
    /// The processed photo per shot; nil for RAW-only requests.
    let output: ProcessedOutput?
    /// The RAW photo per shot; nil without RAW.
    let raw: RawRequest?
    let preview: PreviewRequest?
    let thumbnail: ThumbnailRequest?
    let orientation: Int
    let maxQuality: AVCapturePhotoOutput.QualityPrioritization
    /// The colour space photos are rendered and tagged in.
    let colorSpace: ColorSpace

    /// Photos delivered per shot: one RAW and/or one processed.
    var photosPerShot: Int { (raw == nil ? 0 : 1) + (output == nil ? 0 : 1) }
}

/// One accepted request: a private copy of the settings, what validation found, and its order on the output.
struct PhotoRequest: @unchecked Sendable {
    let settings: AVCapturePhotoSettings
    let context: CaptureContext
    /// 1-based position among the output's accepted requests; seeds noise and hand shake.
    let index: UInt64
}

/// The plan for one request: the shots to take and how to finish them.
struct CapturePlan: @unchecked Sendable {
    var camera: FrameSource
    var readoutSize: Size
    /// One entry per delivered processed photo, in capture order.
    var shots: [PlannedShot]
    var flash: Bool
    var stabilization: Bool
    var metering: ExposureMetering

    /// Every sensor exposure of the request, in order.
    var exposures: [SensorExposure] { shots.flatMap(\.exposures) }
}

/// One delivered shot: its sensor frames (several when still-image stabilisation fuses them)
/// and where it sits in a bracket.
struct PlannedShot: @unchecked Sendable {
    var exposures: [SensorExposure]
    /// The bracket entry, the very object from the request's array; nil outside a bracket.
    var bracketSettings: AVCaptureBracketedStillImageSettings?
    /// 1-based position in the bracket, 0 outside one.
    var sequenceCount: Int
    var lensStabilization: AVCaptureDevice.LensStabilizationStatus
}
