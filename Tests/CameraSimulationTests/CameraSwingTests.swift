import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

@Suite struct CameraSwingTests {
    @Test func theSwingEasesInAndOutAndTheGyroscopeReadsIt() {
        let swing = CameraSwing.lowering(at: 2, degrees: 40, duration: 0.5)
        #expect(swing.angles(at: 1.9) == .zero && swing.angularVelocity(at: 1.9) == .zero)
        #expect(abs(swing.angles(at: 2.25).y - 20 * .pi / 180) < 1e-12, "half way at half time")
        #expect(abs(swing.angles(at: 3).y - 40 * .pi / 180) < 1e-12, "and stays there")
        #expect(abs(swing.angularVelocity(at: 2.25).y - 1.5 * (40 * .pi / 180) / 0.5) < 1e-9, "peak rate")
        // The gyroscope: a still hand turns far below the trimming threshold, the swing far above it.
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 4)
        let still = stride(from: 0.0, to: 10, by: 0.01).map { (camera.angularVelocity(at: $0, swings: []) * 57.3).max() }
        #expect(still.allSatisfy { abs($0) < 1.5 }, "hand shake under 1.5 °/s")
        let swinging = camera.angularVelocity(at: 2.25, swings: [swing])
        #expect(swinging.y > 1.5)
    }

    /// A swing finished before the exposure moves the picture by focal length × angle: 2° down moves the room up.
    @Test func aFinishedSwingMovesThePictureByTheAngle() throws {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 4)
        let size = Size(width: 504, height: 378)
        var exposure = SensorExposure(size: size, duration: 0.002, iso: 100, opticalStabilization: true, startTime: 5)
        let level = camera.groundTruth(exposure)
        exposure.swings = [CameraSwing(start: 1, duration: 0.5, angles: SIMD2(0, 2 * .pi / 180))]
        let tilted = camera.groundTruth(exposure)
        let expected = ViewGeometry(module: .backWide, size: size).focalPixels * 2 * .pi / 180
        // Row means of green; the best vertical shift between the two.
        func rows(_ r: Raster<Float>) -> [Float] {
            (0..<size.height).map { y in (0..<size.width).reduce(Float(0)) { $0 + r.storage[3 * (y * size.width + $1) + 1] } }
        }
        let a = rows(level), b = rows(tilted)
        let margin = 40
        let best = (0...margin).min { s, t in
            func cost(_ shift: Int) -> Float {
                (margin..<(size.height - margin)).reduce(Float(0)) { $0 + abs(b[$1 - shift] - a[$1]) }
            }
            return cost(s) < cost(t)
        }!
        #expect(abs(Double(best) - expected) <= 1.5, "shift \(best) px, expected \(expected)")
    }
}
