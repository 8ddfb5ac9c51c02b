import CaptureCore
import Foundation

/// Everything besides the mosaic that goes into a DNG: identity, EXIF and the camera profile.
///
/// Matrices follow the DNG specification: `colorMatrix` maps CIE XYZ to camera-native RGB under
/// its calibration illuminant (no chromatic adaptation); `forwardMatrix` maps white-balanced
/// camera RGB to XYZ relative to D50 (the profile connection space).
public struct DNGMetadata: Sendable {
    public var make: String
    public var model: String
    /// DNG UniqueCameraModel: names the camera profile (make and model are usually enough).
    public var uniqueCameraModel: String
    /// Exposure data (ExposureTime, FNumber, ISO, FocalLength, DateTimeOriginal…), written as the EXIF IFD.
    public var exif: ExifMetadata
    /// TIFF Orientation, 1…8.
    public var orientation: Int
    /// XYZ → camera under `calibrationIlluminant1`.
    public var colorMatrix1: Matrix3
    /// XYZ → camera under `calibrationIlluminant2`; nil for a single-illuminant profile.
    public var colorMatrix2: Matrix3?
    /// White-balanced camera → XYZ (D50) for illuminant 1.
    public var forwardMatrix1: Matrix3?
    /// White-balanced camera → XYZ (D50) for illuminant 2 (only written with `colorMatrix2`).
    public var forwardMatrix2: Matrix3?
    /// EXIF LightSource code: 17 = Standard A, 21 = D65.
    public var calibrationIlluminant1: UInt16
    public var calibrationIlluminant2: UInt16
    /// EV a raw converter should add to its default rendering (DNG BaselineExposure: where the zero point of its exposure
    /// moves, positive brighter): a capture's `RawImage.baselineExposure`, the highlight headroom its auto exposure left
    /// (`ExposureMetering.highlightHeadroom` says why +3.8 EV is right for a room with a window).
    public var baselineExposure: Double
    /// Software (IFD0); defaults to "OpenCapture".
    public var software: String

    public init(make: String, model: String, uniqueCameraModel: String? = nil, exif: ExifMetadata = ExifMetadata(),
                orientation: Int = 1, colorMatrix1: Matrix3, colorMatrix2: Matrix3? = nil,
                forwardMatrix1: Matrix3? = nil, forwardMatrix2: Matrix3? = nil,
                calibrationIlluminant1: UInt16 = 17, calibrationIlluminant2: UInt16 = 21,
                baselineExposure: Double = 0, software: String = "OpenCapture") {
        self.make = make
        self.model = model
        self.uniqueCameraModel = uniqueCameraModel ?? "\(make) \(model)"
        self.exif = exif
        self.orientation = orientation
        self.colorMatrix1 = colorMatrix1
        self.colorMatrix2 = colorMatrix2
        self.forwardMatrix1 = forwardMatrix1
        self.forwardMatrix2 = forwardMatrix2
        self.calibrationIlluminant1 = calibrationIlluminant1
        self.calibrationIlluminant2 = calibrationIlluminant2
        self.baselineExposure = baselineExposure
        self.software = software
    }

    /// A single-illuminant (D65, CalibrationIlluminant1 = 21) profile derived from the frame's
    /// `cameraToSRGB` and `asShotNeutral`: the simulator has one illuminant, and a second matrix
    /// labelled Standard A would claim a calibration that never happened.
    ///
    /// ColorMatrix1 = diag(neutral) · cameraToSRGB⁻¹ · XYZ→sRGB, scaled so the largest camera
    /// response to the D65 white (Y = 1) is 1; ForwardMatrix1 = Bradford(D65→D50) · sRGB→XYZ · cameraToSRGB.
    public static func derived(from raw: RawImage, make: String, model: String, exif: ExifMetadata) -> DNGMetadata {
        let neutral = raw.asShotNeutral
        let sRGBToXYZ = ColorSpace.sRGB.toXYZ
        let colorMatrix: Matrix3
        if let inverse = raw.cameraToSRGB.inverse, neutral.min() > 0 {
            let m = Matrix3.diagonal(neutral.x, neutral.y, neutral.z) * inverse * ColorSpace.sRGB.fromXYZ
            let scale = max(neutral.x, neutral.y, neutral.z)
            colorMatrix = Matrix3(rowMajor: m.m.map { $0 / scale })
        } else {
            colorMatrix = ColorSpace.sRGB.fromXYZ  // degenerate input: an sRGB-primaries camera
        }
        var exif = exif
        exif.make = exif.make ?? make
        exif.model = exif.model ?? model
        exif.exposureTime = exif.exposureTime ?? (raw.exposure.duration > 0 ? raw.exposure.duration : nil)
        exif.iso = exif.iso ?? (raw.exposure.iso > 0 ? Int(raw.exposure.iso.rounded()) : nil)
        return DNGMetadata(make: make, model: model, exif: exif, orientation: exif.orientation,
                           colorMatrix1: colorMatrix, colorMatrix2: nil,
                           forwardMatrix1: bradfordD65ToD50 * sRGBToXYZ * raw.cameraToSRGB,
                           calibrationIlluminant1: 21, calibrationIlluminant2: 21,
                           baselineExposure: raw.baselineExposure, software: exif.software ?? "OpenCapture")
    }

    /// Bradford chromatic adaptation from D65 to D50.
    static let bradfordD65ToD50 = Matrix3([[1.0478112, 0.0228866, -0.0501270],
                                           [0.0295424, 0.9904844, -0.0170491],
                                           [-0.0092345, 0.0150436, 0.7521316]])
}
