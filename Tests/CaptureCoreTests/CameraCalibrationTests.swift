import CaptureCore
import Testing

@Suite struct CameraCalibrationTests {
    let calibration = CameraCalibration(focalLength: SIMD2(3270, 3270), principalPoint: SIMD2(2016, 1512),
                                        referenceDimensions: Size(width: 4032, height: 3024),
                                        translation: SIMD3(-0.01, 0, 0), pixelSize: 0.00122,
                                        lensDistortionLookupTable: [0, 0.01, 0.04], inverseLensDistortionLookupTable: [0, -0.0099, -0.0385])

    @Test func scalesIntrinsicsWithTheImage() {
        let small = calibration.scaled(to: Size(width: 768, height: 576))
        #expect(abs(small.focalLength.x - 3270 * 768 / 4032) < 1e-9)
        #expect(abs(small.principalPoint.y - 288) < 1e-9)
        #expect(abs(small.pixelSize - 0.00122 * 4032 / 768) < 1e-12)
        #expect(small.referenceDimensions == Size(width: 768, height: 576))
    }

    @Test func applesMatricesAreColumnMajorWithMillimetres() {
        #expect(calibration.intrinsicMatrixColumnMajor == [3270, 0, 0, 0, 3270, 0, 2016, 1512, 1])
        let extrinsic = calibration.extrinsicMatrixColumnMajor
        #expect(extrinsic.count == 12)
        #expect(Array(extrinsic[0..<9]) == [1, 0, 0, 0, 1, 0, 0, 0, 1])
        #expect(abs(extrinsic[9] + 10) < 1e-12 && extrinsic[10] == 0 && extrinsic[11] == 0)
    }

    @Test func distortionLookUpMovesPointsRadially() {
        // The centre does not move; the farthest corner moves by the last entry (4 %, stored as a Float).
        #expect(calibration.distort(SIMD2(2016, 1512)) == SIMD2(2016, 1512))
        let corner = calibration.distort(SIMD2(4032, 3024))
        #expect(abs(corner.x - (2016 + 2016 * 1.04)) < 1e-4 && abs(corner.y - (1512 + 1512 * 1.04)) < 1e-4)
        // Half-way out reads index 1 (1 %); the coarse 3-entry inverse table brings it back within half a pixel.
        let half = SIMD2<Double>(2016 + 1008, 1512 + 756)
        let distorted = calibration.distort(half)
        #expect(abs(distorted.x - (2016 + 1008 * 1.01)) < 1e-6)
        let back = calibration.undistort(distorted)
        #expect(abs(back.x - half.x) < 0.5 && abs(back.y - half.y) < 0.5)
    }

    @Test func anIdealLensHasNoDistortionWhetherItsTablesAreEmptyOrZero() {
        #expect(calibration.hasLensDistortion)
        var ideal = calibration
        ideal.lensDistortionLookupTable = [Float](repeating: 0, count: 42)
        ideal.inverseLensDistortionLookupTable = [Float](repeating: 0, count: 42)
        #expect(!ideal.hasLensDistortion)
        ideal.lensDistortionLookupTable = []
        ideal.inverseLensDistortionLookupTable = []
        #expect(!ideal.hasLensDistortion)
    }
}
