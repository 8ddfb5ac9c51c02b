/// A Bayer frame as read out of the sensor, with what a raw developer needs to interpret it.
/// This is the hand-off between the camera simulation and the image pipeline (and later DNG).
///
/// A linear DNG's image (PhotometricInterpretation LinearRaw: camera RGB already demosaiced, as Apple ProRAW and
/// Adobe DNG Converter's linear option store it) is a `RawImage` too, whose `bayer` holds three interleaved samples
/// per pixel (`isLinear`): the ISP takes it through the same stages, the demosaic skipped.
public struct RawImage: Sendable {
    /// One 16-bit word per photosite, holding `bitDepth`-bit ADC codes (black level included); for a linear image
    /// (`isLinear`), three per pixel (camera R, G, B interleaved).
    public var bayer: Raster<UInt16>
    /// The mosaic's layout; not used for a linear image (which has none).
    public var cfa: CFAPattern
    public var bitDepth: Int
    /// ADC code of zero light, per CFA position in row-major 2×2 order (for a linear image: per channel R, G, B, or
    /// one for all).
    public var blackLevel: [Float]
    /// Largest code the ADC produces (2^bitDepth − 1 unless saturation is lower).
    public var whiteLevel: Int
    /// Camera-RGB response to the scene's white (what DNG calls AsShotNeutral), green = 1.
    public var asShotNeutral: SIMD3<Double>
    /// White-balanced camera RGB → linear sRGB (D65); rows sum to one.
    public var cameraToSRGB: Matrix3
    /// Heteroscedastic noise model per colour, in normalised units (signal 0…1 above black):
    /// variance = scale · signal + offset (DNG NoiseProfile).
    public var noiseProfile: [(scale: Double, offset: Double)]
    /// Exposure that produced the frame.
    public var exposure: ExposureRecord
    /// How many EV the frame is to be brightened when developed (DNG's BaselineExposure, which cameras that expose
    /// for highlights write, iPhones among them); the ISP applies it as digital gain, and a positive value with a
    /// highlight roll-off so the sensor's full scale still maps to white. The simulator's frames carry auto exposure's
    /// highlight headroom (0 unless a bright window held the exposure back); a raw-merged bracket adds its range.
    public var baselineExposure: Double = 0
    /// The lens's distortion, lateral chromatic aberration and vignetting over this mosaic (DNG's `WarpRectilinear`
    /// and `FixVignetteRadial`), which the ISP corrects; nil when unknown. The simulator's frames carry their module's.
    public var lensCorrection: LensCorrection? = nil

    public init(bayer: Raster<UInt16>, cfa: CFAPattern, bitDepth: Int, blackLevel: [Float], whiteLevel: Int,
                asShotNeutral: SIMD3<Double>, cameraToSRGB: Matrix3,
                noiseProfile: [(scale: Double, offset: Double)], exposure: ExposureRecord) {
        self.bayer = bayer
        self.cfa = cfa
        self.bitDepth = bitDepth
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.asShotNeutral = asShotNeutral
        self.cameraToSRGB = cameraToSRGB
        self.noiseProfile = noiseProfile
        self.exposure = exposure
    }

    /// Whether the image is linear camera RGB (three samples per pixel, no mosaic): a linear DNG's.
    public var isLinear: Bool { bayer.channels == 3 }

    public var width: Int { bayer.width }
    public var height: Int { bayer.height }
}

/// The exposure parameters a frame was taken with.
public struct ExposureRecord: Sendable, Hashable, Codable {
    /// Seconds.
    public var duration: Double
    public var iso: Double
    /// Exposure-target bias the auto exposure applied, in EV.
    public var bias: Double
    public var flashFired: Bool
    /// Start of the exposure on the session clock, seconds.
    public var startTime: Double
    /// How many raw frames were merged into this one (1 for a single exposure).
    public var frameCount: Int

    public init(duration: Double, iso: Double, bias: Double = 0, flashFired: Bool = false,
                startTime: Double = 0, frameCount: Int = 1) {
        self.duration = duration
        self.iso = iso
        self.bias = bias
        self.flashFired = flashFired
        self.startTime = startTime
        self.frameCount = frameCount
    }
}
