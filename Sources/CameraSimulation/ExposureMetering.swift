import Foundation

/// Result of metering the scene: what a phone's auto exposure and flash/low-light logic decide from.
public struct ExposureMetering: Sendable, Hashable {
    /// Chosen exposure time, seconds.
    public var duration: Double
    /// Chosen ISO.
    public var iso: Double
    /// Metered (centre-weighted, log-average) scene luminance, cd/m².
    public var sceneLuminance: Double
    /// Exposure value at ISO 100 for `sceneLuminance` (`exposureValue100(luminance:)`).
    public var exposureValue100: Double
    /// APEX brightness of the scene (EXIF BrightnessValue): the scene's own light as the meter measured it, the flash left
    /// out — Bv = log2(L / (N·K)) with L the metered log average in cd/m², N = 0.32 (APEX's Sv = log2(N·ISO)) and
    /// K = 12.5, i.e. Bv = EV100 − 5 (`brightnessValue(exposureValue100:)`). It is the scene's, not the shot's: a bias,
    /// the highlight headroom, the exposure's range limits and the flash change the exposure, never Bv (a bracket's three
    /// shots, a flash photo and the same room without it all read alike).
    ///
    /// So Bv and the exposure's Av + Tv − Sv differ by what auto exposure decided, not by a calibration error between the
    /// radiance scale and the ISO (base ISO is saturation-based, ISO 12232, for the same photometric sensor model): at
    /// zero bias, without headroom and within range, auto exposure puts the metered log average at
    /// `SimulatedCamera.autoExposureTarget` (42 %) of full scale, log2(0.42 · 78 / (12.5 · π·T/4)) ≈ 1.89 EV above where
    /// the reflected-light meter equation t·S/N² = K/L puts it (T, the lens transmission, 0.9), so
    /// Bv = Av + Tv − Sv + 1.89 + bias − headroom. iPhones' photos read about +0.8 there (+0.85 in the iPhone 13 Pro HEIC
    /// among the test fixtures, +0.77 and +0.84 in published iPhone 7 Plus and 6s EXIF). The living room's light walls
    /// and ceiling put its log average well above its 18 % grey panel, which the 42 % target lands at 12–20 % of
    /// saturation, around ISO 12232's 12.8 %; a uniform mid-grey card alone would land at 42 %, 1.7 EV over.
    public var brightnessValue: Double
    /// True when the handheld exposure limit forced ISO to at least a third of the module's maximum.
    public var isLowLight: Bool
    /// True only in a dark scene (what `flashMode = .auto` uses).
    public var flashRecommended: Bool
    /// EV the exposure is held below what the metered luminance asks for, to keep the scene's highlights (a window
    /// onto daylight) within reach of a −2 EV bracket shot, as phones' auto exposure does in high-contrast scenes.
    /// The frame records it as its baseline exposure, which the ISP gives back as gain with a highlight roll-off.
    ///
    /// It is the RAW photo's DNG BaselineExposure, and that is the right value, large as it is (+3.83 EV in the
    /// `.daylight` and `.indoor` rooms, where an iPhone's DNG usually says within ±1.5 EV): DNG defines BaselineExposure
    /// as how far a converter moves the zero point of its exposure so that a camera that leaves highlight headroom
    /// renders as bright as one that does not, and this exposure left exactly this much. Developed with it, the daylight
    /// room's DNG has the dim room's brightness (the dim exposure keeps no headroom): `dcraw_emu -W -b 14.25` (2^3.83)
    /// gives it a median linear luminance of 0.244, the dim DNG's 0.245 with `-b 1`; without it the room is 3.8 EV dark,
    /// as `dcraw_emu`, which ignores the tag, shows it (median 0.009). OpenCapture's own develop of the DNG is as bright as
    /// the camera's JPEG of the same shot (mean linear luminance 0.434 against 0.433 at 12 MP). The value is large because
    /// this auto exposure holds a single frame back for the whole window, up to `SimulatedCamera.maximumHighlightHeadroom`.
    public var highlightHeadroom: Double

    /// Creates a metering result; `brightnessValue` defaults to that of `exposureValue100` (a meter without a flash).
    public init(duration: Double, iso: Double, sceneLuminance: Double, exposureValue100: Double,
                brightnessValue: Double? = nil, isLowLight: Bool, flashRecommended: Bool, highlightHeadroom: Double = 0) {
        self.duration = duration
        self.iso = iso
        self.sceneLuminance = sceneLuminance
        self.exposureValue100 = exposureValue100
        self.brightnessValue = brightnessValue ?? Self.brightnessValue(exposureValue100: exposureValue100)
        self.isLowLight = isLowLight
        self.flashRecommended = flashRecommended
        self.highlightHeadroom = highlightHeadroom
    }

    /// Reflected-light meter calibration constant K (ISO 2720), cd·s/m² per ISO.
    public static let meterConstant = 12.5

    /// EV at ISO 100 a reflected-light meter reads for luminance `luminance` (cd/m²): log2(L · 100 / K).
    public static func exposureValue100(luminance: Double) -> Double { log2(luminance * 100 / meterConstant) }

    /// EV at ISO 100 of an exposure (f-number, seconds, ISO): Av + Tv − log2(ISO / 100), what a meter reading that
    /// exposure as normal would have read.
    public static func exposureValue100(fNumber: Double, duration: Double, iso: Double) -> Double {
        log2(fNumber * fNumber / duration) - log2(iso / 100)
    }

    /// APEX Bv for an EV100: Sv(100) = log2(0.32 · 100) = 5, so Bv = EV100 − 5.
    public static func brightnessValue(exposureValue100: Double) -> Double { exposureValue100 - 5 }
}
