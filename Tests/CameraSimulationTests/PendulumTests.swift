import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

@Suite struct PendulumTests {
    @Test func itSwingsThroughTheBottomOnEveryWholeSecond() {
        #expect(abs(Pendulum.angle(at: 3)) < 1e-12)
        #expect(abs(Pendulum.angle(at: 0.5) - Pendulum.amplitude) < 1e-12)
        let rest = Pendulum.bobCenter(at: 0)
        #expect(abs(rest.y - (Pendulum.pivot.y - Pendulum.rodLength)) < 1e-12)
    }

    /// Ground truth a quarter period apart: the bob's brass is at its projected place at rest, and gone from
    /// there when it has swung out.
    @Test func theBobIsWhereTheProjectionSaysAndMoves() throws {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 2)
        let size = Size(width: 504, height: 378)
        func truth(_ t: Double) -> Raster<Float> {
            camera.groundTruth(SensorExposure(size: size, duration: 0.002, iso: 100, opticalStabilization: true, startTime: t))
        }
        let rest = try #require(camera.pixelLocation(of: Pendulum.bobCenter(at: 10.0), size: size))
        let swung = try #require(camera.pixelLocation(of: Pendulum.bobCenter(at: 10.5), size: size))
        #expect(abs(swung.x - rest.x) > 5, "a visible swing: \(swung.x - rest.x) px")
        func redOverBlue(_ r: Raster<Float>, _ p: SIMD2<Double>) -> Float {
            let i = 3 * (Int(p.y) * size.width + Int(p.x))
            return r.storage[i] / max(r.storage[i + 2], 1e-6)
        }
        let atRest = truth(10.0), later = truth(10.5)
        let wall = redOverBlue(atRest, rest + SIMD2(0, -20))           // plaster above the bob
        #expect(redOverBlue(atRest, rest) > 1.8 * wall, "brass at the bob's place")
        #expect(redOverBlue(later, swung) > 1.8 * wall, "brass where it swung to")
        #expect(abs(redOverBlue(later, rest) / wall - 1) < 0.2, "plaster where it was")
    }
}

