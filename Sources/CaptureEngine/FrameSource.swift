import CameraSimulation
import CaptureCore

/// Where a device's frames come from: the simulated camera or recorded raw files. A new kind of
/// device (the dual camera's pair, a TrueDepth projector, a running stream) is a new frame source.
///
/// Conformers must be safe to call from any queue: the engine meters on the caller's queue and
/// exposes on its sensor queue.
package protocol FrameSource: AnyObject, Sendable {
    /// Auto exposure for a readout size and bias (EV), with or without the flash, with or without holding back
    /// highlight headroom (`ExposureMetering.highlightHeadroom`), weighted around `point` (the exposure point of
    /// interest, (0, 0) top-left … (1, 1) bottom-right).
    func meter(size: Size, bias: Double, flash: Bool, keepsHighlightHeadroom: Bool, at point: SIMD2<Double>) -> ExposureMetering
    /// One raw frame.
    func capture(_ exposure: SensorExposure) -> RawImage
    /// One raw frame read out over its middle `centerRows` rows only (a video crop).
    func capture(_ exposure: SensorExposure, centerRows: Int?) -> RawImage
    /// The noise-free frame, when the source knows it.
    func groundTruth(_ exposure: SensorExposure) -> Raster<Float>?
    /// Metres per pixel, when the source knows it.
    func depthMap(size: Size) -> Raster<Float>?
    /// Renders what a readout size needs ahead of the first capture; returns whether it rendered.
    @discardableResult func prepare(size: Size) -> Bool
    func isPrepared(size: Size) -> Bool
    func purgeCaches()
    /// What the phone's gyroscope reads at session time `time` with `swings` made: (yaw, pitch) rad/s;
    /// nil for sources without a motion sensor (replayed files).
    func angularVelocity(at time: Double, swings: [CameraSwing]) -> SIMD2<Double>?
}

extension FrameSource {
    /// Centre-weighted, with highlight headroom.
    package func meter(size: Size, bias: Double, flash: Bool = false) -> ExposureMetering {
        meter(size: size, bias: bias, flash: flash, keepsHighlightHeadroom: true, at: SIMD2(0.5, 0.5))
    }

    /// The whole frame, cropped.
    package func capture(_ exposure: SensorExposure, centerRows: Int?) -> RawImage {
        let frame = capture(exposure)
        return centerRows.map { frame.croppingRows(to: $0) } ?? frame
    }
}

extension FrameSource {
    package func angularVelocity(at time: Double, swings: [CameraSwing]) -> SIMD2<Double>? { nil }
}

extension SimulatedCamera: FrameSource {
    package func meter(size: Size, bias: Double, flash: Bool, keepsHighlightHeadroom: Bool, at point: SIMD2<Double>) -> ExposureMetering {
        meter(size: size, bias: bias, flash: flash, keepsHighlightHeadroom: keepsHighlightHeadroom, pointOfInterest: point)
    }
    package func angularVelocity(at time: Double, swings: [CameraSwing]) -> SIMD2<Double>? {
        angularVelocity(at: time, swings: swings) as SIMD2<Double>
    }
    package func groundTruth(_ exposure: SensorExposure) -> Raster<Float>? { groundTruth(exposure) as Raster<Float> }
    package func depthMap(size: Size) -> Raster<Float>? { depthMap(size: size) as Raster<Float> }
}
