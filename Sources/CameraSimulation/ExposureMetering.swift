/// Result of metering the scene: what a phone's auto exposure and flash/low-light logic decide from.
public struct ExposureMetering: Sendable, Hashable {
    /// Chosen exposure time, seconds.
    public var duration: Double
    /// Chosen ISO.
    public var iso: Double
    /// Metered (centre-weighted, log-average) scene luminance, cd/m².
    public var sceneLuminance: Double
    /// Exposure value at ISO 100 for `sceneLuminance` (reflected-light constant K = 12.5).
    public var exposureValue100: Double
    /// True when the handheld exposure limit forced ISO to at least a third of the module's maximum.
    public var isLowLight: Bool
    /// True only in a dark scene (what `flashMode = .auto` uses).
    public var flashRecommended: Bool
    /// EV the exposure is held below what the metered luminance asks for, to keep the scene's highlights (a window
    /// onto daylight) within reach of a −2 EV bracket shot, as phones' auto exposure does in high-contrast scenes.
    /// The frame records it as its baseline exposure, which the ISP gives back as gain with a highlight roll-off.
    public var highlightHeadroom: Double

    /// Creates a metering result.
    public init(duration: Double, iso: Double, sceneLuminance: Double, exposureValue100: Double,
                isLowLight: Bool, flashRecommended: Bool, highlightHeadroom: Double = 0) {
        self.duration = duration
        self.iso = iso
        self.sceneLuminance = sceneLuminance
        self.exposureValue100 = exposureValue100
        self.isLowLight = isLowLight
        self.flashRecommended = flashRecommended
        self.highlightHeadroom = highlightHeadroom
    }
}
