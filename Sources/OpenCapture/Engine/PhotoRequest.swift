import CameraSimulation
import CaptureCore
import Foundation

/// How the processed photo is delivered.
enum ProcessedOutput: Sendable {
    case jpeg(quality: Double)
    case uncompressed(pixelFormat: OSType)
}

struct PreviewRequest: Sendable {
    var pixelFormat: OSType
    var size: Size
}

struct ThumbnailRequest: Sendable {
    var size: Size
}

/// What validation learned about the output and device for one request.
struct CaptureContext: @unchecked Sendable {
    let device: AVCaptureDevice
    let session: AVCaptureSession
    let format: AVCaptureDevice.Format
    let photoSize: Size
    let output: ProcessedOutput
    let preview: PreviewRequest?
    let thumbnail: ThumbnailRequest?
    let orientation: Int
    let maxQuality: AVCapturePhotoOutput.QualityPrioritization
}

/// One accepted request: a private copy of the settings, what validation found, and its order on the output.
struct PhotoRequest: @unchecked Sendable {
    let settings: AVCapturePhotoSettings
    let context: CaptureContext
    /// 1-based position among the output's accepted requests; seeds noise and hand shake.
    let index: UInt64
}

/// The plan for one request: the exposures to take and how to finish them.
struct CapturePlan: Sendable {
    var camera: SimulatedCamera
    var readoutSize: Size
    var exposures: [SensorExposure]
    var flash: Bool
    var stabilization: Bool
    var metering: ExposureMetering
}
