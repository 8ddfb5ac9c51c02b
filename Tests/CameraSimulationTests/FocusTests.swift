import CaptureCore
import Testing
@testable import CameraSimulation

@Suite struct FocusTests {
    @Test func circleOfConfusionMatchesTheThinLensByHand() {
        // Wide: f = 3.99 mm, N = 1.8 → A = 2.2167 mm; s = 600 mm, z = 4000 mm:
        // c = 2.2167 · 3.99 · 3400 / (4000 · 596.01) = 0.012613 mm ≈ 10.3 pixels of 1.22 µm.
        let wide = CameraModule.backWide
        let c = wide.circleOfConfusion(depth: 4, focusDistance: 0.6)
        #expect(abs(c - 0.012613) < 2e-6, "c = \(c) mm")
        #expect(abs(c * 1000 / wide.pixelPitch - 10.34) < 0.02)
        // Tele: f = 6.6 mm, N = 2.8 → A = 2.357 mm; c = 2.357 · 6.6 · 3400 / (4000 · 593.4) = 0.022284 mm.
        let tele = CameraModule.backTelephoto.circleOfConfusion(depth: 4, focusDistance: 0.6)
        #expect(abs(tele - 0.022284) < 3e-6, "tele c = \(tele) mm")
        // In focus → 0; limits at infinity; nonsense never traps.
        #expect(wide.circleOfConfusion(depth: 0.6, focusDistance: 0.6) < 1e-12)
        #expect(abs(wide.circleOfConfusion(depth: .infinity, focusDistance: 0.6) - 2.2167 * 3.99 / 596.01) < 1e-5)
        #expect(abs(wide.circleOfConfusion(depth: 2, focusDistance: .infinity) - 2.2167 * 3.99 / 2000) < 1e-6)
        #expect(wide.circleOfConfusion(depth: -1, focusDistance: 0.6) == 0)
        #expect(wide.circleOfConfusion(depth: .nan, focusDistance: 0.6) == 0)
        #expect(wide.circleOfConfusion(depth: 1, focusDistance: 0).isFinite)
    }

    @Test func lensPositionIsLinearInDioptresAndRoundTrips() {
        for module in [CameraModule.backWide, .backTelephoto] {
            #expect(abs(module.focusDistance(lensPosition: 0) - module.minimumFocusDistance) < 1e-12)
            #expect(module.focusDistance(lensPosition: 1) == .infinity)
            // Halfway in dioptres: twice the minimum focus distance.
            #expect(abs(module.focusDistance(lensPosition: 0.5) - 2 * module.minimumFocusDistance) < 1e-12)
            for p in stride(from: 0.0, through: 1.0, by: 0.125) {
                #expect(abs(module.lensPosition(focusDistance: module.focusDistance(lensPosition: p)) - p) < 1e-12)
            }
            for d in [0.4, 0.6, 1.5, 4.0] {
                #expect(abs(module.focusDistance(lensPosition: module.lensPosition(focusDistance: d)) - d) < 1e-9)
            }
            // Clamped.
            #expect(module.lensPosition(focusDistance: 0.01) == 0 && module.lensPosition(focusDistance: .infinity) == 1)
            #expect(module.focusDistance(lensPosition: -3) == module.minimumFocusDistance)
            #expect(module.focusDistance(lensPosition: 7) == .infinity)
        }
        #expect(CameraModule.backWide.minimumFocusDistance == 0.10 && CameraModule.backTelephoto.minimumFocusDistance == 0.35)
        // The front camera is fixed-focus at its hyperfocal distance.
        let front = CameraModule.frontTrueDepth
        #expect(!front.supportsAutoFocus && CameraModule.backWide.supportsAutoFocus)
        #expect(abs(front.minimumFocusDistance - front.hyperfocalDistance) < 1e-12)
        #expect(front.hyperfocalDistance > 1.3 && front.hyperfocalDistance < 1.7)
        #expect(front.focusDistance(lensPosition: 0.3) == front.minimumFocusDistance)
        // At the hyperfocal distance, infinity is just acceptably sharp.
        let cInf = front.circleOfConfusion(depth: .infinity, focusDistance: front.hyperfocalDistance)
        #expect(abs(cInf - front.acceptableCircleOfConfusion) < 1e-9)
    }

    @Test func calibrationIsTheRenderersPinhole() throws {
        let size = Size(width: 640, height: 480)
        for module in [CameraModule.backWide, .backTelephoto, .frontTrueDepth] {
            let camera = SimulatedCamera(module: module, scene: .default)
            let cal = module.calibration(size: size)
            let g = ViewGeometry(module: module, size: size)
            #expect(cal.focalLength.x == g.focalPixels && cal.focalLength.y == g.focalPixels)
            #expect(cal.principalPoint == SIMD2(320, 240) && cal.referenceDimensions == size)
            #expect(abs(cal.pixelSize - g.pixelPitch / 1000) < 1e-15)
            let tables = module.lensCorrection(size: size).lookupTables(count: 42)
            #expect(cal.lensDistortionLookupTable == tables.forward && cal.inverseLensDistortionLookupTable == tables.inverse)
            #expect(cal.hasLensDistortion && cal.lensDistortionLookupTable.last! < -0.005)
            #expect(cal.rotation == .identity && cal.translation == .zero)
            let points: [SIMD3<Double>] = module.position == .back
                ? [SimulatedScene.colorChartPatchCenter(0), SimulatedScene.nearObjectCenter, SimulatedScene.backWallPoint]
                : [SimulatedScene.faceCenter]
            for p in points {
                let expected = try #require(camera.pixelLocation(of: p, size: size))
                // The pinhole, then the lens's distortion (its look-up tables are checked in LensCorrectionTests).
                let projected = module.lensCorrection(size: size)
                    .recordedPoint(ofCorrected: project(p, module: module, calibration: cal), plane: 1)
                #expect(abs(projected.x - expected.x) < 1e-6 && abs(projected.y - expected.y) < 1e-6,
                        "\(module.name): \(projected) vs \(expected)")
            }
        }
    }

    @Test func calibrationRelativeToTheWideMapsItsFrameIntoTheTele() throws {
        let size = Size(width: 640, height: 480)
        let wide = CameraModule.backWide, tele = CameraModule.backTelephoto
        let cal = tele.calibration(size: size, relativeTo: wide)
        // The wide lens sits 1 cm left of the tele: in the tele's frame it is at x = −0.01 m.
        #expect(abs(cal.translation.x + 0.01) < 1e-12 && abs(cal.translation.y) < 1e-12 && abs(cal.translation.z) < 1e-12)
        #expect(cal.rotation == .identity)
        let camera = SimulatedCamera(module: tele, scene: .default)
        let p = SimulatedScene.colorChartPatchCenter(7)
        // World → wide camera frame → (rotation, translation) → tele camera frame → pixels.
        let inWide = wide.cameraFrame * (p - wide.lensPosition)
        let inTele = cal.rotation * inWide + cal.translation
        let pixel = SIMD2(cal.principalPoint.x + cal.focalLength.x * inTele.x / inTele.z,
                          cal.principalPoint.y + cal.focalLength.y * inTele.y / inTele.z)
        let expected = try #require(camera.pixelLocation(of: p, size: size))
        let distorted = tele.lensCorrection(size: size).recordedPoint(ofCorrected: pixel, plane: 1)
        #expect(abs(distorted.x - expected.x) < 1e-6 && abs(distorted.y - expected.y) < 1e-6)
        // The front camera looks the other way: a half turn about y (x and z flip).
        let front = CameraModule.frontTrueDepth.calibration(size: size, relativeTo: wide)
        #expect(front.rotation == Matrix3([[-1, 0, 0], [0, 1, 0], [0, 0, -1]]))
    }

    /// World point → pixel through `calibration` alone (camera frame x right, y down, z forward).
    func project(_ p: SIMD3<Double>, module: CameraModule, calibration cal: CameraCalibration) -> SIMD2<Double> {
        let q = module.cameraFrame * (p - module.lensPosition)
        return SIMD2(cal.principalPoint.x + cal.focalLength.x * q.x / q.z, cal.principalPoint.y + cal.focalLength.y * q.y / q.z)
    }
}
