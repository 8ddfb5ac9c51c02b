import CaptureCore

extension CameraModule {
    /// The lens's distortion, lateral chromatic aberration and vignetting for a readout of `size`, in the form a DNG
    /// states them (what undoes them): the distortion rescaled from the native sensor to the readout's field, and the
    /// vignetting the renderer's cos⁴ fall-off, which is exactly 1 / (1 + 2t²r² + t⁴r⁴) with t the tangent of the
    /// half-diagonal field angle of the readout.
    public func lensCorrection(size: Size) -> LensCorrection {
        let g = ViewGeometry(module: self, size: size)
        let t = g.normalisingRadius / g.focalPixels
        return LensCorrection(size: Size(width: g.width, height: g.height), radial: g.lensRadial,
                              vignetting: [2 * t * t, t * t * t * t])
    }

    /// The same module behind an ideal lens (no distortion, no lateral chromatic aberration; the cos⁴ fall-off of
    /// light stays): what its pictures would be with the lens's flaws corrected, for measuring a correction.
    public var withIdealLens: CameraModule {
        var copy = self
        copy.lensDistortion = [SIMD4(1, 0, 0, 0)]
        return copy
    }

    /// Whether the lens distorts or has lateral chromatic aberration.
    public var hasLensDistortion: Bool { lensDistortion.contains { $0 != SIMD4(1, 0, 0, 0) } }
}
