import CaptureCore

/// Hardware of one camera module (iPhone-class public figures; sensor electronics derived, see `CameraModule+Presets`).
public struct CameraModule: Sendable, Hashable {
    /// Display name, e.g. "Back Camera".
    public var name: String
    /// Side of the phone the module faces.
    public var position: CameraPosition
    /// Real focal length, mm.
    public var focalLength: Double
    /// 35 mm-equivalent focal length (diagonal), mm.
    public var focalLength35mmEquivalent: Double
    /// Aperture f-number.
    public var fNumber: Double
    /// Pixel pitch at native resolution, µm.
    public var pixelPitch: Double
    /// Full sensor readout size.
    public var nativeSize: Size
    /// Colour-filter-array layout.
    public var cfa: CFAPattern
    /// ADC bits per sample.
    public var bitDepth: Int
    /// ADC code of zero light.
    public var blackLevel: Int
    /// Full-well capacity at the native pixel size, electrons.
    public var fullWellElectrons: Double
    /// Temporal read noise at the native pixel size, electrons RMS.
    public var readNoiseElectrons: Double
    /// Dark current, electrons per second per native pixel.
    public var darkCurrentElectronsPerSecond: Double
    /// Photo-response non-uniformity, relative sigma.
    public var prnu: Double
    /// Dark-signal non-uniformity, electrons sigma per native pixel.
    public var dsnuElectrons: Double
    /// ISO at unity analog gain (saturation-based: the white level is the full well).
    public var baseISO: Double
    /// Supported ISO values.
    public var isoRange: ClosedRange<Double>
    /// Supported exposure times, seconds.
    public var exposureDurationRange: ClosedRange<Double>
    /// The module can fire the (shared) LED flash.
    public var hasFlash: Bool
    /// The module has optical image stabilisation.
    public var hasOpticalStabilization: Bool
    /// Lens centre in the phone's frame, metres (x right, y up, z out of the back).
    public var lensPosition: SIMD3<Double>
    /// White-balanced camera RGB → linear sRGB; rows sum to one (inverse of `sensorMixing`).
    public var cameraToSRGB: Matrix3
    /// Green-channel quantum efficiency × filter transmission (electrons per 555 nm-equivalent photon).
    public var quantumEfficiency: Double
    /// Camera-RGB response to the D65 white relative to green (the as-shot neutral), green = 1.
    public var whiteResponse: SIMD3<Double>
    /// Lens transmission T in E = π·L·T/(4N²).
    public var lensTransmission: Double
    /// Luminous intensity of the flash LED seen from this module, candela (0 without flash).
    public var flashIntensity: Double
    /// Nearest distance the lens can focus at, metres; for a fixed-focus module the one distance it is focused at.
    public var minimumFocusDistance: Double
    /// The lens moves to focus (false for a fixed-focus module such as the front TrueDepth camera).
    public var supportsAutoFocus: Bool
    /// Radial distortion and lateral chromatic aberration: per colour plane (R, G, B), where the lens puts a point
    /// of the ideal pinhole image, as `LensCorrection`'s kr0…kr3 over the native sensor's half-diagonal (green kr0
    /// is 1: the focal length is the pinhole's at the centre). Identity for an ideal lens.
    public var lensDistortion: [SIMD4<Double>]

    /// Creates a module; `fullWellElectrons` should follow `CameraModule.saturationFullWell` to keep ISO saturation-based.
    public init(name: String, position: CameraPosition, focalLength: Double, focalLength35mmEquivalent: Double,
                fNumber: Double, pixelPitch: Double, nativeSize: Size, cfa: CFAPattern = .rggb, bitDepth: Int = 14,
                blackLevel: Int = 528, fullWellElectrons: Double, readNoiseElectrons: Double,
                darkCurrentElectronsPerSecond: Double, prnu: Double, dsnuElectrons: Double, baseISO: Double,
                isoRange: ClosedRange<Double>, exposureDurationRange: ClosedRange<Double>, hasFlash: Bool,
                hasOpticalStabilization: Bool, lensPosition: SIMD3<Double>, cameraToSRGB: Matrix3,
                quantumEfficiency: Double, whiteResponse: SIMD3<Double>, lensTransmission: Double = 0.9,
                flashIntensity: Double = 0, minimumFocusDistance: Double = 0.1, supportsAutoFocus: Bool = true,
                lensDistortion: [SIMD4<Double>] = [SIMD4(1, 0, 0, 0)]) {
        self.name = name
        self.position = position
        self.focalLength = focalLength
        self.focalLength35mmEquivalent = focalLength35mmEquivalent
        self.fNumber = fNumber
        self.pixelPitch = pixelPitch
        self.nativeSize = nativeSize
        self.cfa = cfa
        self.bitDepth = bitDepth
        self.blackLevel = blackLevel
        self.fullWellElectrons = fullWellElectrons
        self.readNoiseElectrons = readNoiseElectrons
        self.darkCurrentElectronsPerSecond = darkCurrentElectronsPerSecond
        self.prnu = prnu
        self.dsnuElectrons = dsnuElectrons
        self.baseISO = baseISO
        self.isoRange = isoRange
        self.exposureDurationRange = exposureDurationRange
        self.hasFlash = hasFlash
        self.hasOpticalStabilization = hasOpticalStabilization
        self.lensPosition = lensPosition
        self.cameraToSRGB = cameraToSRGB
        self.quantumEfficiency = quantumEfficiency
        self.whiteResponse = whiteResponse
        self.lensTransmission = lensTransmission
        self.flashIntensity = flashIntensity
        self.minimumFocusDistance = minimumFocusDistance
        self.supportsAutoFocus = supportsAutoFocus
        self.lensDistortion = lensDistortion
    }

    /// Largest code the ADC produces.
    public var whiteLevel: Int { (1 << bitDepth) - 1 }

    /// Linear sRGB (D65) → white-balanced camera RGB: the sensor's spectral crosstalk, rows sum to one.
    public var sensorMixing: Matrix3 { cameraToSRGB.inverse ?? .identity }

    /// Photons per µm² per lux·s (555 nm), the photometric-to-photon conversion used throughout.
    public static let photonsPerLuxSecondPerSquareMicron = 4090.0

    /// Full well that makes `baseISO` saturation-based (ISO 12232: S = 78 / H_sat, H_sat in lux·s at the sensor).
    public static func saturationFullWell(quantumEfficiency: Double, pixelPitch: Double, baseISO: Double) -> Double {
        78 / baseISO * photonsPerLuxSecondPerSquareMicron * pixelPitch * pixelPitch * quantumEfficiency
    }

    /// Handheld exposure-time limit auto exposure prefers before raising ISO, seconds.
    public var handheldDurationLimit: Double {
        min(1.0 / 15.0, (hasOpticalStabilization ? 4.0 : 1.0) / (2 * focalLength35mmEquivalent))
    }
}
