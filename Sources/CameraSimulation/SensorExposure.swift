import CaptureCore

/// One exposure request for the sensor.
public struct SensorExposure: Sendable, Hashable {
    /// Readout size; smaller than the module's native size is a binned/scaled readout with bigger effective pixels.
    public var size: Size
    /// Exposure time, seconds.
    public var duration: Double
    /// Saturation-based ISO; analog gain = iso / baseISO.
    public var iso: Double
    /// The flash fires (continuously, LED) during this exposure; ignored on modules without a flash.
    public var flash: Bool
    /// Optical image stabilisation is active; ignored on modules without OIS.
    public var opticalStabilization: Bool
    /// Start of the exposure on the session clock, seconds; drives the hand-shake trajectory.
    public var startTime: Double
    /// Exposure bias in EV; only recorded into the `ExposureRecord`.
    public var bias: Double
    /// EV the ISP brightens this frame by (auto exposure's highlight headroom): recorded as the raw image's
    /// `baselineExposure` (a DNG's BaselineExposure).
    public var baselineExposure: Double = 0
    /// Temporal-noise seed for this frame.
    public var seed: UInt64
    /// Distance the lens is focused at, metres (clamped to what the module can focus on); nil = every depth in
    /// focus (no defocus blur, the all-in-focus render).
    public var focusDistance: Double?
    /// Deliberate camera movements (on top of the hand shake; each turns the view from its start time on, and
    /// their turns add up).
    public var swings: [CameraSwing] = []

    /// Creates an exposure request.
    public init(size: Size, duration: Double, iso: Double, flash: Bool = false, opticalStabilization: Bool = false,
                startTime: Double = 0, bias: Double = 0, seed: UInt64 = 0, focusDistance: Double? = nil) {
        self.size = size
        self.duration = duration
        self.iso = iso
        self.flash = flash
        self.opticalStabilization = opticalStabilization
        self.startTime = startTime
        self.bias = bias
        self.seed = seed
        self.focusDistance = focusDistance
    }
}
