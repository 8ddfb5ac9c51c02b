import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

@Suite struct DefocusTests {
    static let size = Size(width: 504, height: 378)   // 8× binned: 8 µm effective pixels on the tele
    /// In the poster's coloured title band on the back wall, clear of the easel board for the tele.
    static let posterPoint = SIMD3<Double>(0.75, 0.72, 4)

    func exposure(_ camera: SimulatedCamera, _ size: Size, focus: Double?) -> SensorExposure {
        let m = camera.meter(size: size)
        return SensorExposure(size: size, duration: m.duration, iso: m.iso, seed: 1, focusDistance: focus)
    }

    @Test func noFocusDistanceIsTodaysAllInFocusFrame() {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 3)
        let e = exposure(camera, testSize, focus: nil)
        #expect(e.focusDistance == nil)
        #expect(camera.sensorPlanes(for: e) === camera.sensorPlanes(size: testSize))
    }

    /// The blur of the back wall (a plane at 4 m, the poster's text) fits a uniform disc of the thin-lens diameter.
    @Test func wallBlurMatchesTheThinLensCircle() throws {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 3)
        let size = DefocusTests.size
        let sharp = camera.groundTruth(exposure(camera, size, focus: nil))
        let blurred = camera.groundTruth(exposure(camera, size, focus: 0.35))
        let pitch = ViewGeometry(module: camera.module, size: size).pixelPitch / 1000
        let expected = camera.module.circleOfConfusion(depth: 4, focusDistance: 0.35) / pitch   // ≈ 5.2 px
        #expect(expected > 4.5 && expected < 6)
        let c = try #require(camera.pixelLocation(of: DefocusTests.posterPoint, size: size))
        // Least-squares fit of the diameter of an independent, supersampled disc applied to the sharp frame.
        var bestDiameter = 0.0, bestError = Double.infinity
        for diameter in stride(from: 3.0, through: 8.0, by: 0.25) {
            let kernel = disc(diameter)
            var error = 0.0
            for y in (Int(c.y) - 15)...(Int(c.y) + 15) {
                for x in (Int(c.x) - 15)...(Int(c.x) + 15) {
                    var v = 0.0
                    for (dx, dy, w) in kernel { v += w * Double(sharp[x + dx, y + dy, 1]) }
                    let d = v - Double(blurred[x, y, 1])
                    error += d * d
                }
            }
            if error < bestError { bestError = error; bestDiameter = diameter }
        }
        #expect(abs(bestDiameter - expected) <= 0.5, "fitted \(bestDiameter) px, thin lens \(expected) px")
    }

    /// Area-weighted uniform disc of `diameter` pixels (16×16 supersampling), weights summing to one.
    func disc(_ diameter: Double) -> [(Int, Int, Double)] {
        let r = diameter / 2, reach = Int(r + 1)
        var taps: [(Int, Int, Double)] = []
        var total = 0.0
        for dy in -reach...reach {
            for dx in -reach...reach {
                var inside = 0
                for sy in 0..<16 {
                    for sx in 0..<16 {
                        let u = Double(dx) - 0.5 + (Double(sx) + 0.5) / 16, v = Double(dy) - 0.5 + (Double(sy) + 0.5) / 16
                        if u * u + v * v <= r * r { inside += 1 }
                    }
                }
                if inside > 0 { taps.append((dx, dy, Double(inside))); total += Double(inside) }
            }
        }
        return taps.map { ($0.0, $0.1, $0.2 / total) }
    }

    @Test func theFocusedPlaneStaysSharpAndFlatRegionsKeepTheirLight() throws {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 3)
        let size = DefocusTests.size
        let sharp = camera.groundTruth(exposure(camera, size, focus: nil))
        // Focused on the wall: the wall is the all-in-focus frame.
        let onWall = camera.groundTruth(exposure(camera, size, focus: 4))
        let c = try #require(camera.pixelLocation(of: DefocusTests.posterPoint, size: size))
        for y in (Int(c.y) - 10)...(Int(c.y) + 10) {
            for x in (Int(c.x) - 10)...(Int(c.x) + 10) {
                for ch in 0..<3 { #expect(abs(onWall[x, y, ch] - sharp[x, y, ch]) <= 1e-6 * max(1, sharp[x, y, ch])) }
            }
        }
        // Focused near: the whole frame loses fine detail.
        let near = camera.groundTruth(exposure(camera, size, focus: 0.35))
        #expect(gradientEnergy(near) < 0.7 * gradientEnergy(sharp))
        // The wide focused at 0.3 m blurs the flat grey panel at 1.5 m by ≈ 4.9 px; its mean light stays.
        let wide = SimulatedCamera(module: .backWide, scene: .default, seed: 3)
        let wideSize = Size(width: 1008, height: 756)
        let wideSharp = wide.groundTruth(exposure(wide, wideSize, focus: nil))
        let wideNear = wide.groundTruth(exposure(wide, wideSize, focus: 0.3))
        let g = try #require(wide.pixelLocation(of: SimulatedScene.midGreyPanelCenter, size: wideSize))
        for ch in 0..<3 {
            let a = rasterMean(wideSharp, at: g, radius: 8, channel: ch), b = rasterMean(wideNear, at: g, radius: 8, channel: ch)
            #expect(abs(a - b) / a < 0.003, "channel \(ch): \(a) → \(b)")
        }
    }

    /// Focused on the near box (0.6 m) with the wide: the box face is exactly the all-in-focus render more than
    /// a pixel inside its silhouette, although the room behind it is blurred (no halo creeps onto the sharp side).
    @Test func aSharpForegroundKeepsItsEdge() throws {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 3)
        let size = Size(width: 1008, height: 756)
        let sharp = camera.groundTruth(exposure(camera, size, focus: nil))
        let focused = camera.groundTruth(exposure(camera, size, focus: 0.6))
        let depth = camera.depthMap(size: size)
        // The box's front face: pixels at 0.6 m whose neighbours within 2 px are all at 0.6 m too.
        var checked = 0, background = 0.0, backgroundSharp = 0.0
        for y in 2..<(size.height - 2) {
            for x in 2..<(size.width - 2) {
                var face = true
                for dy in -2...2 { for dx in -2...2 where abs(depth[x + dx, y + dy] - 0.6) > 1e-3 { face = false } }
                if face {
                    checked += 1
                    for ch in 0..<3 { #expect(abs(focused[x, y, ch] - sharp[x, y, ch]) <= 1e-6 * max(1, sharp[x, y, ch])) }
                } else if depth[x, y] > 3.9 {
                    background += abs(Double(focused[x, y, 1] - sharp[x, y, 1])); backgroundSharp += Double(sharp[x, y, 1])
                }
            }
        }
        #expect(checked > 1000, "face pixels \(checked)")
        #expect(background / backgroundSharp > 0.01, "the wall is blurred")
    }
}
