import CaptureCore

/// What the image signal processor does to a raw frame.
public struct ISPSettings: Sendable {
    /// Demosaicing algorithm.
    public var demosaic: DemosaicMethod = .residualInterpolation
    /// Per-channel gains on camera RGB; nil ⇒ 1 / asShotNeutral of the RawImage.
    public var whiteBalance: SIMD3<Double>? = nil
    /// Output primaries (camera → sRGB, then sRGB → this space).
    public var colorSpace: ColorSpace = .sRGB
    /// Digital gain applied after the black level (linear).
    public var exposureGain: Double = 1
    /// Tone curve and transfer function applied last.
    public var toneCurve: ToneCurve = .standard
    /// 0 = off; 1 = default strength, scaled by the RawImage's noise profile (which carries the ISO).
    public var noiseReduction: Double = 1
    /// Luma detail boost; 0 = off. Detail below the noise level is not boosted; the boost is a gain on the whole pixel
    /// (hue and saturation kept), at most one EV either way.
    public var sharpening: Double = 0.5
    /// nil = full size; otherwise an area-average down-scale to this size (the caller keeps the aspect).
    public var outputSize: Size? = nil
    /// Brightens the lens's vignetting (`RawImage.lensCorrection`) in linear raw, as a phone's lens-shading
    /// correction does.
    public var correctsLensShading: Bool = true
    /// Resamples the lens's distortion and lateral chromatic aberration (`RawImage.lensCorrection`) away in `process`
    /// and `processLinear` (a phone's geometric distortion correction); `processYCbCr420` (video) does not resample.
    public var correctsDistortion: Bool = true

    public init() {}
}
