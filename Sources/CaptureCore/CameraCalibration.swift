import Foundation

/// One camera's geometric calibration, in the terms of Apple's `AVCameraCalibrationData`:
/// pinhole intrinsics in pixels of a reference size, the pose relative to the device's reference
/// camera, the pixel size, and the radial lens-distortion lookup tables.
///
/// The one home of this knowledge: the simulator fills it from its optics, the stereo matcher
/// rectifies with it, the file writers store it as Apple's `depthData:` XMP, and the Apple surface
/// wraps it as `AVCameraCalibrationData`.
public struct CameraCalibration: Sendable, Hashable {
    /// Focal lengths fx, fy in pixels of `referenceDimensions`.
    public var focalLength: SIMD2<Double>
    /// Principal point cx, cy in pixels of `referenceDimensions` ((0, 0) = the top-left corner).
    public var principalPoint: SIMD2<Double>
    /// The image size the intrinsics are expressed in (Apple's `intrinsicMatrixReferenceDimensions`).
    public var referenceDimensions: Size
    /// Rotation from the reference camera's frame to this camera's frame (row-major).
    public var rotation: Matrix3
    /// Position of the reference camera's origin in this camera's frame, metres (x right, y down, z forward).
    /// Apple's `extrinsicMatrix` stores the same translation in millimetres.
    public var translation: SIMD3<Double>
    /// Size of one pixel of `referenceDimensions` on the sensor, millimetres.
    public var pixelSize: Double
    /// Radial magnification from the distortion centre (index 0) to the farthest corner (last
    /// index): a point at radius r in an undistorted image lies at r·(1 + table[r]) in the distorted one.
    public var lensDistortionLookupTable: [Float]
    /// The inverse table: distorted radius → undistorted, same sampling.
    public var inverseLensDistortionLookupTable: [Float]
    /// Centre of the radial distortion, pixels of `referenceDimensions`.
    public var lensDistortionCenter: SIMD2<Double>

    public init(focalLength: SIMD2<Double>, principalPoint: SIMD2<Double>, referenceDimensions: Size,
                rotation: Matrix3 = .identity, translation: SIMD3<Double> = .zero, pixelSize: Double,
                lensDistortionLookupTable: [Float] = [], inverseLensDistortionLookupTable: [Float] = [],
                lensDistortionCenter: SIMD2<Double>? = nil) {
        self.focalLength = focalLength
        self.principalPoint = principalPoint
        self.referenceDimensions = referenceDimensions
        self.rotation = rotation
        self.translation = translation
        self.pixelSize = pixelSize
        self.lensDistortionLookupTable = lensDistortionLookupTable
        self.inverseLensDistortionLookupTable = inverseLensDistortionLookupTable
        self.lensDistortionCenter = lensDistortionCenter ?? principalPoint
    }

    /// The same calibration for an image of `size` covering the same field of view (intrinsics,
    /// pixel size and distortion centre scaled by the width ratio).
    public func scaled(to size: Size) -> CameraCalibration {
        guard referenceDimensions.width > 0, size.width > 0 else { return self }
        let s = Double(size.width) / Double(referenceDimensions.width)
        var copy = self
        copy.focalLength = focalLength * s
        copy.principalPoint = principalPoint * s
        copy.lensDistortionCenter = lensDistortionCenter * s
        copy.pixelSize = pixelSize / s
        copy.referenceDimensions = size
        return copy
    }

    /// Apple's intrinsic matrix, column-major: [fx, 0, 0,  0, fy, 0,  cx, cy, 1].
    public var intrinsicMatrixColumnMajor: [Double] {
        [focalLength.x, 0, 0, 0, focalLength.y, 0, principalPoint.x, principalPoint.y, 1]
    }

    /// Apple's extrinsic matrix (4 columns × 3 rows), column-major: the rotation's columns then the
    /// translation in millimetres.
    public var extrinsicMatrixColumnMajor: [Double] {
        var out: [Double] = []
        for column in 0..<3 { for row in 0..<3 { out.append(rotation[row, column]) } }
        out += [translation.x * 1000, translation.y * 1000, translation.z * 1000]
        return out
    }

    /// Where `point` of an undistorted (`table` = the distortion table) or distorted (`table` = the
    /// inverse table) image lands, by Apple's documented look-up: the radius relative to the farthest
    /// corner indexes `table` with linear interpolation, and the point moves radially by (1 + value).
    public static func distortedPoint(_ point: SIMD2<Double>, table: [Float], center: SIMD2<Double>, imageSize: Size)
        -> SIMD2<Double> {
        guard table.count > 1 else { return point }
        let corners = [SIMD2<Double>(0, 0), SIMD2(Double(imageSize.width), 0), SIMD2(0, Double(imageSize.height)),
                       SIMD2(Double(imageSize.width), Double(imageSize.height))]
        let rMax = corners.map { (($0 - center) * ($0 - center)).sum().squareRoot() }.max() ?? 0
        guard rMax > 0 else { return point }
        let delta = point - center
        let r = (delta * delta).sum().squareRoot()
        let position = min(r / rMax, 1) * Double(table.count - 1)
        let i = min(Int(position), table.count - 2)
        let t = position - Double(i)
        let magnification = Double(table[i]) * (1 - t) + Double(table[i + 1]) * t
        return center + delta * (1 + magnification)
    }

    /// Whether the lens distorts at all (a table with a non-zero entry); an ideal lens's tables may be
    /// empty or all zeros, and its points need no look-up.
    public var hasLensDistortion: Bool {
        lensDistortionLookupTable.contains { $0 != 0 } || inverseLensDistortionLookupTable.contains { $0 != 0 }
    }

    /// The same camera seen through an ideal lens: what calibrates an image whose distortion was corrected.
    public var withoutLensDistortion: CameraCalibration {
        var copy = self
        copy.lensDistortionLookupTable = []
        copy.inverseLensDistortionLookupTable = []
        return copy
    }

    /// This calibration's distortion applied to an ideal pinhole point.
    public func distort(_ point: SIMD2<Double>) -> SIMD2<Double> {
        Self.distortedPoint(point, table: lensDistortionLookupTable, center: lensDistortionCenter,
                            imageSize: referenceDimensions)
    }

    /// The ideal pinhole point of a distorted image point.
    public func undistort(_ point: SIMD2<Double>) -> SIMD2<Double> {
        Self.distortedPoint(point, table: inverseLensDistortionLookupTable, center: lensDistortionCenter,
                            imageSize: referenceDimensions)
    }
}
