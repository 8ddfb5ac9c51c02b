import CaptureCore
import Foundation
import Testing

@Suite struct LensCorrectionTests {
    /// A 2 % barrel lens with ≈ 1 px of lateral CA at the corner of 4032×3024.
    let lens = LensCorrection(size: Size(width: 4032, height: 3024),
                              radial: [SIMD4(1.0004, -0.02, -0.005, 0), SIMD4(1, -0.02, -0.005, 0), SIMD4(0.9996, -0.02, -0.005, 0)],
                              vignetting: [1.2, 0.36])

    @Test func correctedAndRecordedPointsAreInverses() {
        for point in [SIMD2(0.0, 0.0), SIMD2(4032.0, 3024.0), SIMD2(100.0, 2900.0), SIMD2(2016.0, 1512.0), SIMD2(3000.0, 700.0)] {
            for plane in 0..<3 {
                let recorded = lens.recordedPoint(ofCorrected: point, plane: plane)
                let back = lens.correctedPoint(ofRecorded: recorded, plane: plane)
                #expect(((back - point) * (back - point)).sum().squareRoot() < 1e-6)
            }
        }
        // The corner of the corrected image comes from 2.5 % nearer the centre; red and blue differ by ≈ 2 px there.
        let corner = lens.recordedPoint(ofCorrected: SIMD2(4032, 3024), plane: 1)
        #expect(abs((corner.x - 2016) / 2016 - 0.975) < 1e-9)
        let red = lens.recordedPoint(ofCorrected: SIMD2(4032, 3024), plane: 0), blue = lens.recordedPoint(ofCorrected: SIMD2(4032, 3024), plane: 2)
        #expect(abs(((red - blue) * (red - blue)).sum().squareRoot() - 2 * 0.0004 * 2520) < 1e-6)
    }

    @Test func vignettingGainIsThePolynomialOfTheNormalisedRadius() {
        #expect(lens.gain(at: SIMD2(2016, 1512)) == 1)
        #expect(abs(lens.gain(at: SIMD2(0, 0)) - (1 + 1.2 + 0.36)) < 1e-12)
        #expect(abs(lens.gain(at: SIMD2(2016 + 1260, 1512)) - (1 + 1.2 * 0.25 + 0.36 * 0.0625)) < 1e-12)
    }

    @Test func aCropKeepsEveryPointWhereItWas() {
        let crop = lens.cropped(x: 0, y: 378, width: 4032, height: 2268)
        for point in [SIMD2(10.0, 400.0), SIMD2(4000.0, 2600.0), SIMD2(2016.0, 1512.0)] {
            let inCrop = point - SIMD2(0, 378)
            for plane in 0..<3 {
                let a = lens.recordedPoint(ofCorrected: point, plane: plane) - SIMD2(0, 378)
                let b = crop.recordedPoint(ofCorrected: inCrop, plane: plane)
                #expect(((a - b) * (a - b)).sum().squareRoot() < 1e-9)
            }
            #expect(abs(lens.gain(at: point) - crop.gain(at: inCrop)) < 1e-12)
        }
    }

    @Test func applesLookupTablesDescribeTheGreenPlane() {
        let tables = lens.lookupTables(count: 42)
        let calibration = CameraCalibration(focalLength: SIMD2(3000, 3000), principalPoint: SIMD2(2016, 1512),
                                            referenceDimensions: lens.size, rotation: .identity, translation: .zero,
                                            pixelSize: 0.00122, lensDistortionLookupTable: tables.forward,
                                            inverseLensDistortionLookupTable: tables.inverse)
        for point in [SIMD2(0.0, 0.0), SIMD2(3500.0, 300.0), SIMD2(2500.0, 2000.0)] {
            let exact = lens.recordedPoint(ofCorrected: point, plane: 1)
            let looked = calibration.distort(point)
            #expect(((exact - looked) * (exact - looked)).sum().squareRoot() < 0.02)
            let back = calibration.undistort(exact)
            #expect(((back - point) * (back - point)).sum().squareRoot() < 0.02)
        }
        #expect(calibration.withoutLensDistortion.hasLensDistortion == false && calibration.hasLensDistortion)
    }

    @Test func anIdealLensNeedsNothing() {
        let ideal = LensCorrection(size: Size(width: 64, height: 48), radial: [])
        #expect(!ideal.hasWarp && !ideal.hasVignetting)
        #expect(ideal.recordedPoint(ofCorrected: SIMD2(5, 7), plane: 0) == SIMD2(5, 7))
    }
}
