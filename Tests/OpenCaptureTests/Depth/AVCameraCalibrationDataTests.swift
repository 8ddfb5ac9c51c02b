import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

/// `AVCameraCalibrationData` members and the simd matrix stand-ins they use.
@Suite struct AVCameraCalibrationDataTests {
    /// 90° about z: x of the reference camera is y of this one; asymmetric so the layout shows.
    private let calibration = CameraCalibration(
        focalLength: SIMD2(2900.5, 2901.25), principalPoint: SIMD2(2015.5, 1511.75), referenceDimensions: Size(width: 4032, height: 3024),
        rotation: Matrix3(rowMajor: [0, -1, 0, 1, 0, 0, 0, 0, 1]), translation: SIMD3(0.012, -0.003, 0.0005), pixelSize: 0.00122,
        lensDistortionLookupTable: [0, 0.0005, 0.002, 0.0045], inverseLensDistortionLookupTable: [0, -0.0005, -0.00199, -0.0044],
        lensDistortionCenter: SIMD2(2010, 1509))

    @Test func intrinsicMatrixIsColumnMajorWithThePrincipalPointInTheLastColumn() {
        let data = AVCameraCalibrationData(calibration: calibration)
        let k = data.intrinsicMatrix
        #expect(k.columns.0 == SIMD3(2900.5, 0, 0))
        #expect(k.columns.1 == SIMD3(0, 2901.25, 0))
        #expect(k.columns.2 == SIMD3(2015.5, 1511.75, 1))
        // Apple's sample code reads fx = m[0][0], cx = m[2][0], cy = m[2][1] ([column][row]).
        #expect(k[0][0] == 2900.5 && k[2][0] == 2015.5 && k[2][1] == 1511.75 && k[2, 2] == 1)
        #expect(data.intrinsicMatrixReferenceDimensions == CGSize(width: 4032, height: 3024))
    }

    @Test func extrinsicMatrixHoldsTheRotationColumnsAndTheTranslationInMillimetres() {
        let e = AVCameraCalibrationData(calibration: calibration).extrinsicMatrix
        // R = [[0, -1, 0], [1, 0, 0], [0, 0, 1]] (rows): column 0 is (0, 1, 0), column 1 (-1, 0, 0).
        #expect(e.columns.0 == SIMD3(0, 1, 0) && e.columns.1 == SIMD3(-1, 0, 0) && e.columns.2 == SIMD3(0, 0, 1))
        #expect(e[1][0] == -1, "[column][row]: row 0 of column 1 is R[0,1]")
        #expect(abs(e.columns.3.x - 12) < 1e-5 && abs(e.columns.3.y + 3) < 1e-5 && abs(e.columns.3.z - 0.5) < 1e-5)
        // [R | t] maps a point of the reference camera into this camera's frame (millimetres).
        let mapped = e * SIMD4<Float>(100, 0, 0, 1)
        #expect(abs(mapped.x - 12) < 1e-4 && abs(mapped.y - 97) < 1e-4 && abs(mapped.z - 0.5) < 1e-4)
    }

    @Test func pixelSizeTablesAndDistortionCentre() throws {
        let data = AVCameraCalibrationData(calibration: calibration)
        #expect(data.pixelSize == Float(0.00122))
        let table = try #require(data.lensDistortionLookupTable)
        #expect(table.count == 16)
        let floats = table.withUnsafeBytes { raw in (0..<4).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } }
        #expect(floats == [0, 0.0005, 0.002, 0.0045])
        #expect(data.inverseLensDistortionLookupTable?.count == 16)
        #expect(data.lensDistortionCenter == CGPoint(x: 2010, y: 1509))
        let plain = AVCameraCalibrationData(calibration: CameraCalibration(
            focalLength: SIMD2(500, 500), principalPoint: SIMD2(320, 240), referenceDimensions: Size(width: 640, height: 480), pixelSize: 0.003))
        #expect(plain.lensDistortionLookupTable == nil && plain.inverseLensDistortionLookupTable == nil)
        #expect(plain.lensDistortionCenter == CGPoint(x: 320, y: 240), "the centre defaults to the principal point")
    }

    @Test func publicConstructorRoundTripsApplesMembers() throws {
        let source = AVCameraCalibrationData(calibration: calibration)
        let copy = try AVCameraCalibrationData(
            intrinsicMatrix: source.intrinsicMatrix, intrinsicMatrixReferenceDimensions: source.intrinsicMatrixReferenceDimensions,
            extrinsicMatrix: source.extrinsicMatrix, pixelSize: source.pixelSize,
            lensDistortionLookupTable: source.lensDistortionLookupTable,
            inverseLensDistortionLookupTable: source.inverseLensDistortionLookupTable, lensDistortionCenter: source.lensDistortionCenter)
        #expect(copy.intrinsicMatrix == source.intrinsicMatrix && copy.extrinsicMatrix == source.extrinsicMatrix)
        #expect(copy.intrinsicMatrixReferenceDimensions == source.intrinsicMatrixReferenceDimensions)
        #expect(copy.pixelSize == source.pixelSize && copy.lensDistortionCenter == source.lensDistortionCenter)
        #expect(copy.lensDistortionLookupTable == source.lensDistortionLookupTable)
        #expect(copy.inverseLensDistortionLookupTable == source.inverseLensDistortionLookupTable)

        #expect(throws: DepthDataError.invalidLookupTable(byteCount: 5)) {
            try AVCameraCalibrationData(intrinsicMatrix: matrix_identity_float3x3, intrinsicMatrixReferenceDimensions: CGSize(width: 4, height: 3),
                                        pixelSize: 1, lensDistortionLookupTable: Data(count: 5))
        }
        #expect(throws: DepthDataError.invalidReferenceDimensions(width: 0, height: 3)) {
            try AVCameraCalibrationData(intrinsicMatrix: matrix_identity_float3x3, intrinsicMatrixReferenceDimensions: CGSize(width: 0, height: 3), pixelSize: 1)
        }
        #expect(throws: DepthDataError.self) {
            try AVCameraCalibrationData(intrinsicMatrix: matrix_identity_float3x3,
                                        intrinsicMatrixReferenceDimensions: CGSize(width: CGFloat.nan, height: 3), pixelSize: 1)
        }
    }

    @Test func matrixStandInsBehaveLikeApplesSimdTypes() {
        var m = simd_float3x3(rows: [SIMD3(1, 2, 3), SIMD3(4, 5, 6), SIMD3(7, 8, 10)])
        #expect(m.columns.0 == SIMD3(1, 4, 7) && m[1] == SIMD3(2, 5, 8) && m[2, 2] == 10)
        #expect(m.transpose.columns.0 == SIMD3(1, 2, 3))
        #expect(m.determinant == -3)
        #expect(m * SIMD3(1, 0, 0) == SIMD3(1, 4, 7))
        #expect(m * matrix_identity_float3x3 == m && simd_float3x3(1) == matrix_identity_float3x3)
        #expect(simd_float3x3([SIMD3(1, 4, 7), SIMD3(2, 5, 8), SIMD3(3, 6, 10)]) == m)
        m[0][1] = 40
        #expect(m.columns.0.y == 40)
        #expect(simd_float3x3().columns.2 == .zero)
        #expect(matrix_identity_float3x3.debugDescription == "simd_float3x3([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])")

        var e = matrix_float4x3(rows: [SIMD4(1, 0, 0, 5), SIMD4(0, 1, 0, 6), SIMD4(0, 0, 1, 7)])
        #expect(e.columns.3 == SIMD3(5, 6, 7) && e[3][1] == 6)
        #expect(e == simd_float4x3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(5, 6, 7)))
        #expect(e * SIMD4(1, 1, 1, 1) == SIMD3(6, 7, 8))
        e[3, 0] = 0
        #expect(e.columns.3.x == 0)
        let v: simd_float3 = SIMD3(1, 2, 3)
        #expect(v == vector_float3(1, 2, 3))
    }
}
