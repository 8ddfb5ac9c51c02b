extension RawImage {
    /// The frame's lens correction when it corrects vignetting at this frame's size (what the ISP's shading correction
    /// applies), else nil.
    package var vignettingCorrection: LensCorrection? {
        guard let lens = lensCorrection, lens.hasVignetting, lens.size == Size(width: width, height: height) else { return nil }
        return lens
    }
}
