import CaptureCore
import Testing
@testable import CameraSimulation

@Suite struct TrueDepthRigTests {
    /// Values of `image` in a (2·radius)² box around world point `point`, sorted.
    func patch(_ image: Raster<Float>, rig: TrueDepthRig, at point: SIMD3<Double>, radius: Int = 12) -> [Float] {
        let c = rig.infraredPixelLocation(of: point)!
        var values: [Float] = []
        for y in (Int(c.y) - radius)..<(Int(c.y) + radius) {
            for x in (Int(c.x) - radius)..<(Int(c.x) + radius) { values.append(image[x, y]) }
        }
        return values.sorted()
    }

    /// A plaster point on the wall behind the person (2 m), clear of head, door and painting.
    let wallPoint = SIMD3<Double>(-0.2, 0.6, -2.0)

    @Test func calibrationDescribesTheRig() {
        let rig = TrueDepthRig(scene: .default, seed: 0)
        let c = rig.calibration
        #expect(c.infrared.referenceDimensions == Size(width: 640, height: 480))
        #expect(c.color.referenceDimensions == Size(width: 640, height: 480))
        #expect(c.baseline == 0.025)
        #expect(c.referenceDistance == 1)
        // The colour calibration is frontTrueDepth's 3088×2320 readout scaled to 640 wide: 2.9 mm / (1 µm · 3088/640).
        #expect(abs(c.color.focalLength.x - 2900 * 640 / 3088) < 0.5)
        #expect(c.color.principalPoint == SIMD2(320, 240))
        // Infrared lens 2 cm along phone +x = the mirrored front camera's −x.
        #expect(abs(c.color.translation.x + 0.02) < 1e-12 && c.color.translation.y == 0 && c.color.translation.z == 0)
        #expect(c.infrared.translation == .zero)
        // The infrared field of view covers the colour camera's.
        #expect(c.infrared.focalLength.x < c.color.focalLength.x)
    }

    @Test func framesAreDeterministicPerSeed() {
        let rig = TrueDepthRig(scene: .default, seed: 4)
        let a = rig.captureInfrared(seed: 1), b = rig.captureInfrared(seed: 1), c = rig.captureInfrared(seed: 2)
        #expect(a == b)
        #expect(a != c)
        #expect(a.size == Size(width: 640, height: 480) && a.channels == 1)
        #expect(TrueDepthRig(scene: .default, seed: 4).captureInfrared(seed: 1) == a)
    }

    @Test func nearBrightFaceReturnsMoreThanTheDistantWall() {
        let rig = TrueDepthRig(scene: .default, seed: 0)
        let frame = rig.captureInfrared(seed: 0)
        // Dot peaks (98th percentile) minus the floor between dots (median).
        func dotContrast(_ p: SIMD3<Double>) -> Float {
            let v = patch(frame, rig: rig, at: p)
            return v[v.count * 98 / 100] - v[v.count / 2]
        }
        let face = dotContrast(SimulatedScene.faceCenter), wall = dotContrast(wallPoint)
        // albedo·cosθ/r²: skin ≈ 0.41 at 0.54 m against plaster ≈ 0.5 at 2 m ⇒ ≈ 11×.
        #expect(face > 6 * wall, "face \(face), wall \(wall)")
        #expect(wall > 0.01, "the wall's dots still stand above the noise: \(wall)")
    }

    @Test func referenceImageIsTheDotPatternOnAPlane() {
        let rig = TrueDepthRig(scene: .default, seed: 0)
        let reference = rig.referenceImage()
        #expect(reference.size == Size(width: 640, height: 480))
        #expect(reference == rig.referenceImage())
        // Sparse bright dots on a dark field: most pixels are dark, the brightest are well lit and unsaturated.
        let sorted = reference.storage.sorted()
        #expect(sorted[sorted.count / 2] < 0.02)
        #expect(sorted[sorted.count * 99 / 100] > 0.1)
        #expect(sorted.last! < 1)
        // About one dot per 15 pixels (≈ 20 000 of the 30 000 fall in view): local maxima above 3 % of full scale.
        var peaks = 0
        for y in 1..<479 {
            for x in 1..<639 {
                let v = reference[x, y]
                guard v > 0.03 else { continue }
                if v >= reference[x - 1, y], v > reference[x + 1, y], v >= reference[x, y - 1], v > reference[x, y + 1] { peaks += 1 }
            }
        }
        #expect(peaks > 12_000 && peaks < 30_000, "\(peaks) dots in view")
    }

    @Test func patternIsActiveLightAndAmbientOnlyRaisesTheFloor() {
        let dark = TrueDepthRig(scene: .livingRoom(lighting: .dark), seed: 0).captureInfrared(seed: 0)
        let day = TrueDepthRig(scene: .livingRoom(lighting: .daylight), seed: 0).captureInfrared(seed: 0)
        let rig = TrueDepthRig(scene: .default, seed: 0)
        let faceDark = patch(dark, rig: rig, at: SimulatedScene.faceCenter)
        let faceDay = patch(day, rig: rig, at: SimulatedScene.faceCenter)
        let peakDark = faceDark[faceDark.count * 95 / 100], peakDay = faceDay[faceDay.count * 95 / 100]
        #expect(abs(peakDark - peakDay) < 0.05 * peakDay, "dark \(peakDark), daylight \(peakDay)")
        // Between the dots on the wall: daylight's ambient 940 nm is above the dark room's.
        let wallDark = patch(dark, rig: rig, at: wallPoint, radius: 30), wallDay = patch(day, rig: rig, at: wallPoint, radius: 30)
        let meanDark = wallDark.reduce(0, +) / Float(wallDark.count), meanDay = wallDay.reduce(0, +) / Float(wallDay.count)
        #expect(meanDay > meanDark + 0.001, "daylight \(meanDay), dark \(meanDark)")
    }
}
