import CaptureCore
import Testing
@testable import ImagePipeline

/// The ISP's uses of a lens: green read at another plane's geometry, and the truth corrected as the ISP corrects.
@Suite struct LensCorrectionWarpTests {
    /// A 2 % barrel lens with ≈ 1 px of lateral CA at the corner of 4032×3024.
    let lens = LensCorrection(size: Size(width: 4032, height: 3024),
                              radial: [SIMD4(1.0004, -0.02, -0.005, 0), SIMD4(1, -0.02, -0.005, 0), SIMD4(0.9996, -0.02, -0.005, 0)])

    @Test func greenAlignmentReadsGreenWhereItRecordedTheSamePoint() throws {
        for plane in [0, 2] {
            let guide = try #require(lens.greenAlignment(plane: plane))
            for point in [SIMD2(0.5, 0.5), SIMD2(4031.5, 3023.5), SIMD2(100.5, 2900.5), SIMD2(2016.0, 1512.0), SIMD2(3000.5, 700.5)] {
                let scene = lens.correctedPoint(ofRecorded: point, plane: plane)
                let expected = lens.recordedPoint(ofCorrected: scene, plane: 1)
                let read = guide.sourcePoint(of: point, plane: 0)
                #expect(((read - expected) * (read - expected)).sum().squareRoot() < 1e-3, "plane \(plane) at \(point)")
            }
        }
        // Far from the centre the planes really differ (≈ 1 px at the corner), and green needs no guide.
        let corner = try #require(lens.greenAlignment(plane: 0)).sourcePoint(of: SIMD2(4031.5, 3023.5), plane: 0)
        #expect(((corner - SIMD2(4031.5, 3023.5)) * (corner - SIMD2(4031.5, 3023.5))).sum().squareRoot() > 0.5)
        #expect(lens.greenAlignment(plane: 1) == nil)
        #expect(LensCorrection(size: lens.size, radial: [SIMD4(1, -0.02, 0, 0)]).greenAlignment(plane: 0) == nil)
    }

    /// Lateral CA moves the camera's planes; the truth is corrected there: an image whose camera red plane is a
    /// pattern and whose other camera planes are zero stays zero in camera green and blue after correction.
    @Test func theTruthIsCorrectedInTheCamerasOwnPlanes() throws {
        let size = Size(width: 64, height: 48)
        let small = LensCorrection(size: size, radial: [SIMD4(1.01, -0.03, 0, 0), SIMD4(1, -0.03, 0, 0), SIMD4(0.99, -0.03, 0, 0)])
        let cameraToSRGB = Matrix3(rowMajor: [1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.0, -0.5, 1.5])
        let toCamera = try #require(cameraToSRGB.inverse)
        var truth = Raster<Float>(width: 64, height: 48, channels: 3)
        for y in 0..<48 { for x in 0..<64 {
            let v = cameraToSRGB * SIMD3(Double((x * 7 + y * 3) % 11) / 10, 0, 0)
            for c in 0..<3 { truth.storage[(y * 64 + x) * 3 + c] = Float(v[c]) }
        } }
        var settings = ISPSettings()
        settings.correctsLensShading = false
        let corrected = small.correctedLikeISP(truth, settings: settings, cameraToSRGB: cameraToSRGB)
        var worst = 0.0, red = 0.0
        for i in 0..<(64 * 48) {
            let camera = toCamera * SIMD3(Double(corrected.storage[3 * i]), Double(corrected.storage[3 * i + 1]), Double(corrected.storage[3 * i + 2]))
            worst = max(worst, abs(camera.y), abs(camera.z))
            red = max(red, camera.x)
        }
        #expect(worst < 1e-4, "camera green/blue after correction: \(worst)")
        #expect(red > 0.5)
    }
}
