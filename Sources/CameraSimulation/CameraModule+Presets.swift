import CaptureCore

// Lens flaws (`lensDistortion`): barrel distortion of 1–3 % at the corner (TV distortion of phone lenses before the
// ISP's correction: a few per cent for wide modules, under one for short telephotos) and lateral chromatic
// aberration of ≈ 1 pixel at the corner of the 12 MP frame (red imaged ≈ 0.04 % larger than green, blue as much
// smaller). Magnitudes, not any one phone's design data.
//
// Sensor electronics are not published for iPhone sensors (ANCHORS.md §6). The values below are
// derived, not datasheet: QE·filter ≈ 0.5 for green, base ISO 25, and the full well that makes
// ISO 25 saturation-based (≈ 9 500 e⁻ at 1.22 µm, ≈ 6 400 e⁻ at 1.0 µm — inside the Brooks et al.
// ≈ 10⁴ e⁻ full-scale range). Read noise 2–3 e⁻, dark current a few e⁻/s, PRNU 0.5 %, DSNU ≈ 1 e⁻.
extension CameraModule {
    /// Sensor crosstalk (linear sRGB → white-balanced camera RGB), non-negative, rows sum to one.
    static func mixing(_ rows: [[Double]]) -> Matrix3 { Matrix3(rows).rowNormalized }

    /// Per-plane (R, G, B) radial coefficients of a lens whose green image is `corner` (−0.02 = 2 % barrel) smaller
    /// than the pinhole's at the sensor's corner, growing with r² mostly and a little r⁴, red magnified `chromatic`
    /// more and blue as much less.
    static func barrel(corner: Double, chromatic: Double) -> [SIMD4<Double>] {
        let k1 = corner * 0.8, k2 = corner * 0.2
        return [SIMD4(1 + chromatic, k1, k2, 0), SIMD4(1, k1, k2, 0), SIMD4(1 - chromatic, k1, k2, 0)]
    }

    /// Back wide camera: 3.99 mm (28 mm eq.), f/1.8, 1.22 µm, 4032×3024, flash, OIS, focuses from 10 cm.
    public static let backWide: CameraModule = {
        let qe = 0.5, pitch = 1.22, iso = 25.0
        return CameraModule(
            name: "Back Camera", position: .back, focalLength: 3.99, focalLength35mmEquivalent: 28, fNumber: 1.8,
            pixelPitch: pitch, nativeSize: Size(width: 4032, height: 3024),
            fullWellElectrons: saturationFullWell(quantumEfficiency: qe, pixelPitch: pitch, baseISO: iso),
            readNoiseElectrons: 2.2, darkCurrentElectronsPerSecond: 4, prnu: 0.005, dsnuElectrons: 1.0,
            baseISO: iso, isoRange: 25...2400, exposureDurationRange: (1.0 / 40_000)...1.0,
            hasFlash: true, hasOpticalStabilization: true, lensPosition: SIMD3(0, 0, 0),
            cameraToSRGB: mixing([[0.74, 0.24, 0.02], [0.10, 0.80, 0.10], [0.02, 0.26, 0.72]]).inverse!,
            quantumEfficiency: qe, whiteResponse: SIMD3(0.52, 1, 0.66), flashIntensity: 200, minimumFocusDistance: 0.10,
            lensDistortion: barrel(corner: -0.025, chromatic: 0.0004))
    }()

    /// Back telephoto camera: 6.6 mm (56 mm eq.), f/2.8, 1.0 µm, 4032×3024, shared flash, no OIS, 1 cm right of the
    /// wide, focuses from 35 cm.
    public static let backTelephoto: CameraModule = {
        let qe = 0.5, pitch = 1.0, iso = 25.0
        return CameraModule(
            name: "Back Telephoto Camera", position: .back, focalLength: 6.6, focalLength35mmEquivalent: 56,
            fNumber: 2.8, pixelPitch: pitch, nativeSize: Size(width: 4032, height: 3024),
            fullWellElectrons: saturationFullWell(quantumEfficiency: qe, pixelPitch: pitch, baseISO: iso),
            readNoiseElectrons: 2.5, darkCurrentElectronsPerSecond: 5, prnu: 0.006, dsnuElectrons: 1.2,
            baseISO: iso, isoRange: 25...1600, exposureDurationRange: (1.0 / 40_000)...1.0,
            hasFlash: true, hasOpticalStabilization: false, lensPosition: SIMD3(0.01, 0, 0),
            cameraToSRGB: mixing([[0.72, 0.26, 0.02], [0.11, 0.78, 0.11], [0.03, 0.28, 0.69]]).inverse!,
            quantumEfficiency: qe, whiteResponse: SIMD3(0.50, 1, 0.63), flashIntensity: 200, minimumFocusDistance: 0.35,
            lensDistortion: barrel(corner: -0.008, chromatic: 0.0004))
    }()

    /// Front TrueDepth camera: ≈2.9 mm (≈32 mm eq.), f/2.2, 1.0 µm, 3088×2320, no flash, no OIS; fixed focus at its
    /// hyperfocal distance (≈ 1.5 m for a blur circle of the sensor diagonal / 1500), so everything from ≈ 0.75 m to
    /// infinity is acceptably sharp and a face at arm's length is slightly soft, as on a fixed-focus selfie camera.
    public static let frontTrueDepth: CameraModule = {
        let qe = 0.48, pitch = 1.0, iso = 25.0
        let hyperfocal = hyperfocalDistance(focalLength: 2.9, fNumber: 2.2,
                                            circleOfConfusion: sensorDiagonal(Size(width: 3088, height: 2320), pitch) / 1500)
        return CameraModule(
            name: "Front TrueDepth Camera", position: .front, focalLength: 2.9, focalLength35mmEquivalent: 32,
            fNumber: 2.2, pixelPitch: pitch, nativeSize: Size(width: 3088, height: 2320),
            fullWellElectrons: saturationFullWell(quantumEfficiency: qe, pixelPitch: pitch, baseISO: iso),
            readNoiseElectrons: 2.8, darkCurrentElectronsPerSecond: 6, prnu: 0.006, dsnuElectrons: 1.2,
            baseISO: iso, isoRange: 25...2000, exposureDurationRange: (1.0 / 40_000)...0.5,
            hasFlash: false, hasOpticalStabilization: false, lensPosition: SIMD3(-0.01, 0.06, -0.008),
            cameraToSRGB: mixing([[0.70, 0.28, 0.02], [0.12, 0.76, 0.12], [0.04, 0.30, 0.66]]).inverse!,
            quantumEfficiency: qe, whiteResponse: SIMD3(0.55, 1, 0.60), flashIntensity: 0,
            minimumFocusDistance: hyperfocal, supportsAutoFocus: false,
            lensDistortion: barrel(corner: -0.03, chromatic: 0.0005))
    }()
}
