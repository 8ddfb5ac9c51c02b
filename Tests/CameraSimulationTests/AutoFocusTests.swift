import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

@Suite struct AutoFocusTests {
    /// Contrast AF on three subjects at known distances. Tolerance: the depth of field — the distance found must
    /// image the subject with a blur circle no larger than the acceptable one (sensor diagonal / 1500 ≈ 4.1 µm on
    /// the wide, i.e. within ≈ ±0.46 dioptre of the subject), which is all a photographer (or a phone) asks of focus.
    /// The back wall is aimed at its poster: plain plaster has no detail at the scales defocus changes (a 1 mm
    /// grain of 2.5 % under the shot noise of full-resolution pixels), where contrast AF fails on a phone too.
    @Test(arguments: [(SimulatedScene.colorChartPatchCenter(14), 1.5), (SimulatedScene.nearObjectCenter, 0.6),
                      (SIMD3<Double>(0.75, 0.75, 4), 4.0)])
    func contrastDetectionFindsTheSubject(_ subject: SIMD3<Double>, _ distance: Double) throws {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 5)
        let size = Size(width: 1008, height: 756)
        let m = camera.meter(size: size)
        let exposure = SensorExposure(size: size, duration: m.duration, iso: m.iso, seed: 9)
        let p = try #require(camera.pixelLocation(of: subject, size: size))
        let poi = SIMD2(p.x / Double(size.width), p.y / Double(size.height))
        let result = camera.autoFocus(pointOfInterest: poi, size: size, exposure: exposure)
        let blur = camera.module.circleOfConfusion(depth: distance, focusDistance: result.focusDistance)
        #expect(blur <= camera.module.acceptableCircleOfConfusion,
                "\(distance) m: found \(result.focusDistance) m (lens \(result.lensPosition)), blur \(blur * 1000) µm")
        #expect(result.framesExamined >= 12 && result.framesExamined <= 24)
        #expect(abs(result.sweepDuration - Double(result.framesExamined) * max(m.duration, 1.0 / 30)) < 1e-12)
        #expect(abs(camera.module.lensPosition(focusDistance: result.focusDistance) - result.lensPosition) < 1e-9)
        // Deterministic for a seed.
        #expect(camera.autoFocus(pointOfInterest: poi, size: size, exposure: exposure) == result)
    }

    @Test func plainSurfacesParkTheLensAtTheHyperfocalDistance() throws {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 5)
        let size = Size(width: 1008, height: 756)
        let m = camera.meter(size: size)
        let exposure = SensorExposure(size: size, duration: m.duration, iso: m.iso, seed: 9)
        // Points on the plain plaster of the back wall, away from the poster, the prints and the board.
        let hyperfocal = camera.module.lensPosition(focusDistance: camera.module.hyperfocalDistance)
        for (x, y) in [(0.9, 0.1), (0.5, 0.04), (0.35, 0.2)] {
            let r = camera.autoFocus(pointOfInterest: SIMD2(x, y), size: size, exposure: exposure)
            #expect(abs(r.lensPosition - hyperfocal) < 1e-9, "(\(x), \(y)): \(r.focusDistance) m")
            #expect(r.framesExamined == 12)
        }
    }

    @Test func fixedFocusAnswersAtOnce() {
        let camera = SimulatedCamera(module: .frontTrueDepth, scene: .default, seed: 5)
        let r = camera.autoFocus(pointOfInterest: SIMD2(0.5, 0.5), size: testSize,
                                 exposure: SensorExposure(size: testSize, duration: 0.01, iso: 100))
        #expect(r.framesExamined == 0 && r.sweepDuration == 0 && r.focusDistance == camera.module.minimumFocusDistance)
    }

    @Test func oddPointsOfInterestDoNotTrap() {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 5)
        let e = SensorExposure(size: testSize, duration: 0.02, iso: 200)
        for poi in [SIMD2<Double>(-3, 7), SIMD2(.nan, 0.5), SIMD2(1, 1)] {
            let r = camera.autoFocus(pointOfInterest: poi, size: testSize, exposure: e)
            #expect(r.lensPosition >= 0 && r.lensPosition <= 1)
        }
    }
}
