import CameraSimulation
import CaptureCore

/// Everything a capture needs from a device, read once at the call under the device's lock.
/// Nothing is read from the device after this: later changes to exposure, lighting or seed
/// belong to later requests.
package struct DeviceSnapshot: Sendable {
    /// The camera hardware.
    package var module: CameraModule
    /// Where frames come from: the simulated camera for the lighting and seed at the call, or replayed files.
    package var source: any FrameSource
    /// The device's name as the user sees it (recorded in the EXIF lens model).
    package var name: String
    /// Exposure control at the call.
    package var exposure: ExposureControl
    /// Exposure target bias in EV at the call (also the bracket's "current bias").
    package var bias: Double
    /// Seed of the simulated sensor and hand shake.
    package var seed: UInt64
    /// Where auto exposure meters (`AVCaptureDevice.exposurePointOfInterest`): (0, 0) top-left … (1, 1) bottom-right.
    package var exposurePoint = SIMD2<Double>(0.5, 0.5)
    /// The camera response to white that locked white balance makes neutral (green = 1; `AVCaptureDevice`'s locked
    /// gains); nil for auto white balance (the frame's own as-shot neutral).
    package var whiteBalanceNeutral: SIMD3<Double>?
    /// The colour space photos are rendered and tagged in (the device's active colour space).
    package var colorSpace: ColorSpace
    /// The lens's focus at the call; nil for sources without focus (replayed files).
    package var focus: FocusSnapshot?
    /// How this device measures depth; nil for a single camera.
    package var depthSource: DepthSource?
    /// Processed photos are corrected for the lens's distortion and lateral chromatic aberration
    /// (`AVCaptureDevice.isGeometricDistortionCorrectionEnabled`).
    package var correctsDistortion = true
    /// The deliberate camera movements made so far (read live: a swing made while the stream runs reaches the
    /// frames exposed after it; each turns the view only from its start time).
    package var swings: @Sendable () -> [CameraSwing] = { [] }

    package init(module: CameraModule, source: any FrameSource, name: String, exposure: ExposureControl, bias: Double,
                 seed: UInt64, colorSpace: ColorSpace, focus: FocusSnapshot? = nil, depthSource: DepthSource? = nil) {
        self.module = module
        self.source = source
        self.name = name
        self.exposure = exposure
        self.bias = bias
        self.seed = seed
        self.colorSpace = colorSpace
        self.focus = focus
        self.depthSource = depthSource
    }

    /// The source's auto exposure, metered at the device's exposure point.
    package func meter(size: Size, bias: Double, flash: Bool, keepsHighlightHeadroom: Bool) -> ExposureMetering {
        source.meter(size: size, bias: bias, flash: flash, keepsHighlightHeadroom: keepsHighlightHeadroom, at: exposurePoint)
    }

    /// The exposure the device uses for a readout size: metered with the bias, or the manual values. This is the
    /// video stream's auto exposure (and what `exposureDuration`, `iso` and locking read): it keeps no highlight
    /// headroom — a stream frame gets no local tone mapping to give it back — only photos do (`CapturePlanner`).
    package func currentExposure(size: Size) -> (duration: Double, iso: Double) {
        switch exposure {
        case .automatic:
            let metering = meter(size: size, bias: bias, flash: false, keepsHighlightHeadroom: false)
            return (metering.duration, metering.iso)
        case .manual(let duration, let iso):
            return (duration, iso)
        }
    }
}
