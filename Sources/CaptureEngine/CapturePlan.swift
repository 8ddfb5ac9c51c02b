import CameraSimulation
import CaptureCore

/// What the engine will do for one request: the shots to take, each with its sensor exposures,
/// and the scene decisions (flash, stabilisation) they were planned with.
package struct CapturePlan: Sendable {
    package var source: any FrameSource
    /// One entry per delivered shot, in capture order.
    package var shots: [PlannedShot]
    package var flash: Bool
    package var stabilization: Bool
    /// The metering the exposure came from (with the flash when it fires).
    package var metering: ExposureMetering
    /// The stereo pair's second eye, exposed at the same moment as the first frame (dual camera with depth).
    package var secondary: SecondaryExposure? = nil

    /// Every sensor exposure of the request, in order.
    package var exposures: [SensorExposure] { shots.flatMap(\.exposures) }
}

/// One delivered shot: its sensor frames (several when still-image stabilisation fuses them)
/// and where it sits in a bracket.
package struct PlannedShot: Sendable {
    package var exposures: [SensorExposure]
    /// 0-based index into the request's bracket; nil outside a bracket.
    package var bracketIndex: Int?
    package var lensStabilization: LensStabilization

    /// 1-based position in the bracket, 0 outside one (Apple's `sequenceCount`).
    package var sequenceCount: Int { bracketIndex.map { $0 + 1 } ?? 0 }
}

/// The frame a stereo pair's second camera exposes with the photo: its own auto exposure, noise
/// and lens, focused at the same distance.
package struct SecondaryExposure: Sendable {
    package var source: any FrameSource
    package var module: CameraModule
    package var exposure: SensorExposure
}
