import CaptureCore
import Foundation

/// A camera's calibration (Apple's `AVCameraCalibrationData`): pinhole intrinsics in pixels of a
/// reference size, the pose relative to the device's reference camera, the pixel size and the
/// radial lens-distortion lookup tables. Apple's type cannot be constructed; OpenCapture adds a
/// public initialiser for fakes in tests.
///
/// Differences: the matrices are OpenCapture's `matrix_float3x3` / `matrix_float4x3` stand-ins
/// (Swift on Linux has no simd module), with Apple's `columns` layout and `[column][row]` subscripts.
///
/// `@unchecked Sendable`: the only stored property is an immutable `let` of a `Sendable` value.
public final class AVCameraCalibrationData: NSObject, @unchecked Sendable {
    /// The calibration in CaptureCore's terms (metres, pixels, Double), for the engine and file writers.
    let calibration: CameraCalibration

    /// Wraps a calibration from the simulator or a file.
    init(calibration: CameraCalibration) {
        self.calibration = calibration
        super.init()
    }

    /// OpenCapture addition (Apple's type has no public initialiser): calibration data from Apple's
    /// members, e.g. a fake for tests. Skew in the intrinsic matrix is ignored. Throws
    /// `DepthDataError` for reference dimensions that are not positive whole sizes or lookup tables
    /// that are not whole `Float`s. `lensDistortionCenter` defaults to the principal point.
    public convenience init(intrinsicMatrix: matrix_float3x3, intrinsicMatrixReferenceDimensions: CGSize,
                            extrinsicMatrix: matrix_float4x3 = matrix_float4x3(diagonal: SIMD3(repeating: 1)),
                            pixelSize: Float, lensDistortionLookupTable: Data? = nil,
                            inverseLensDistortionLookupTable: Data? = nil, lensDistortionCenter: CGPoint? = nil) throws {
        let w = Double(intrinsicMatrixReferenceDimensions.width), h = Double(intrinsicMatrixReferenceDimensions.height)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= Double(Int32.max), h <= Double(Int32.max),
              w.rounded() == w, h.rounded() == h else {
            throw DepthDataError.invalidReferenceDimensions(width: w, height: h)
        }
        let table = try Self.floats(lensDistortionLookupTable)
        let inverse = try Self.floats(inverseLensDistortionLookupTable)
        let k = intrinsicMatrix, e = extrinsicMatrix
        var rotation = Matrix3.identity
        for row in 0..<3 { for column in 0..<3 { rotation[row, column] = Double(e[column][row]) } }
        let center = lensDistortionCenter.map { SIMD2(Double($0.x), Double($0.y)) }
        self.init(calibration: CameraCalibration(
            focalLength: SIMD2(Double(k[0][0]), Double(k[1][1])), principalPoint: SIMD2(Double(k[2][0]), Double(k[2][1])),
            referenceDimensions: Size(width: Int(w), height: Int(h)), rotation: rotation,
            translation: SIMD3(Double(e[3][0]), Double(e[3][1]), Double(e[3][2])) / 1000, pixelSize: Double(pixelSize),
            lensDistortionLookupTable: table, inverseLensDistortionLookupTable: inverse, lensDistortionCenter: center))
    }

    private static func floats(_ data: Data?) throws -> [Float] {
        guard let data else { return [] }
        guard data.count % MemoryLayout<Float>.size == 0 else { throw DepthDataError.invalidLookupTable(byteCount: data.count) }
        return data.withUnsafeBytes { raw in (0..<data.count / 4).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
    }

    /// The pinhole camera matrix in pixels of `intrinsicMatrixReferenceDimensions`:
    /// columns (fx, 0, 0), (0, fy, 0), (cx, cy, 1), so `m[2][0]` is cx.
    public var intrinsicMatrix: matrix_float3x3 {
        let c = calibration
        return matrix_float3x3(SIMD3(Float(c.focalLength.x), 0, 0), SIMD3(0, Float(c.focalLength.y), 0),
                               SIMD3(Float(c.principalPoint.x), Float(c.principalPoint.y), 1))
    }

    /// The image size the intrinsic matrix and distortion centre are expressed in.
    public var intrinsicMatrixReferenceDimensions: CGSize {
        CGSize(width: CGFloat(calibration.referenceDimensions.width), height: CGFloat(calibration.referenceDimensions.height))
    }

    /// [R | t]: the rotation from the reference camera's frame to this camera's (columns 0–2) and
    /// the reference camera's origin in this camera's frame, millimetres (column 3).
    public var extrinsicMatrix: matrix_float4x3 {
        let c = calibration
        func column(_ j: Int) -> SIMD3<Float> {
            SIMD3(Float(c.rotation[0, j]), Float(c.rotation[1, j]), Float(c.rotation[2, j]))
        }
        let t = c.translation * 1000
        return matrix_float4x3(column(0), column(1), column(2), SIMD3(Float(t.x), Float(t.y), Float(t.z)))
    }

    /// The size of one pixel of `intrinsicMatrixReferenceDimensions` on the sensor, millimetres.
    public var pixelSize: Float { Float(calibration.pixelSize) }

    /// Radial magnification from the distortion centre to the farthest corner, as native-endian
    /// `Float`s; nil when the lens is modelled without distortion.
    public var lensDistortionLookupTable: Data? { Self.data(calibration.lensDistortionLookupTable) }

    /// The inverse table (distorted radius to undistorted), same layout; nil without distortion.
    public var inverseLensDistortionLookupTable: Data? { Self.data(calibration.inverseLensDistortionLookupTable) }

    /// The centre of the radial distortion, pixels of `intrinsicMatrixReferenceDimensions`.
    public var lensDistortionCenter: CGPoint {
        CGPoint(x: CGFloat(calibration.lensDistortionCenter.x), y: CGFloat(calibration.lensDistortionCenter.y))
    }

    private static func data(_ table: [Float]) -> Data? {
        table.isEmpty ? nil : table.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    public override var description: String {
        let c = calibration
        return "<AVCameraCalibrationData fx \(c.focalLength.x) fy \(c.focalLength.y) cx \(c.principalPoint.x) cy \(c.principalPoint.y) @ \(c.referenceDimensions)>"
    }
}
