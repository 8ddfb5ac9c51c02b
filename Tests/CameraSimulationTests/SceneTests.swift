import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

@Suite struct SceneTests {
    @Test func depthMapHasTheKnownDistances() {
        let camera = SimulatedCamera(module: .backWide, scene: .default)
        let map = camera.depthMap(size: testSize)
        func depth(at p: SIMD3<Double>) -> Double {
            let c = camera.pixelLocation(of: p, size: testSize)!
            return Double(map[Int(c.x), Int(c.y)])
        }
        #expect(abs(depth(at: SimulatedScene.nearObjectCenter) - 0.6) < 0.01)
        #expect(abs(depth(at: SimulatedScene.midGreyPanelCenter) - 1.5) < 0.01)
        #expect(abs(depth(at: SimulatedScene.farObjectCenter) - 3.0) < 0.01)
        #expect(abs(depth(at: SimulatedScene.backWallPoint) - 4.0) < 0.01)
        #expect(depth(at: SimulatedScene.windowSkyPoint) > 20)

        let front = SimulatedCamera(module: .frontTrueDepth, scene: .default)
        let face = SimulatedScene.faceCenter
        let c = front.pixelLocation(of: face, size: testSize)!
        let d = Double(front.depthMap(size: testSize)[Int(c.x), Int(c.y)])
        #expect(abs(d - (front.module.lensPosition.z - face.z)) < 0.02, "face at \(d) m")
    }

    @Test(arguments: [SceneLighting.daylight, .indoor])
    func windowIsSixStopsAboveTheInterior(_ lighting: SceneLighting) {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: lighting))
        let radiance = camera.sceneRadiance(size: testSize)
        func luminance(_ p: SIMD3<Double>) -> Double {
            let c = camera.pixelLocation(of: p, size: testSize)!
            let r = rasterMean(radiance, at: c, radius: 1, channel: 0), g = rasterMean(radiance, at: c, radius: 1, channel: 1)
            let b = rasterMean(radiance, at: c, radius: 1, channel: 2)
            return 0.2126 * r + 0.7152 * g + 0.0722 * b
        }
        let sky = luminance(SimulatedScene.windowSkyPoint), wall = luminance(SimulatedScene.backWallPoint)
        let grey = luminance(SimulatedScene.midGreyPanelCenter)
        // A clear or bright overcast sky over a lit room: 6–10 EV (the span), here ≈ 6.1.
        #expect(log2(sky / wall) >= 6 && log2(sky / wall) <= 10, "sky \(sky) cd/m², wall \(wall) cd/m²")
        // Radiance = albedo × E / π on the grey panel.
        #expect(abs(grey / (0.18 * lighting.interiorIlluminance / Double.pi) - 1) < 0.03)
    }

    @Test func darkSceneHasNightOutside() {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .dark))
        let radiance = camera.sceneRadiance(size: testSize)
        let c = camera.pixelLocation(of: SimulatedScene.windowSkyPoint, size: testSize)!
        #expect(rasterMean(radiance, at: c, radius: 1, channel: 1) < 0.1)
    }

    @Test func eachLensSeesItsOwnView() {
        // Ideal lenses: the pinhole geometry of each view (their distortions differ, and are tested in LensFlawTests).
        let wide = SimulatedCamera(module: CameraModule.backWide.withIdealLens, scene: .default)
        let tele = SimulatedCamera(module: CameraModule.backTelephoto.withIdealLens, scene: .default)
        let front = SimulatedCamera(module: CameraModule.frontTrueDepth.withIdealLens, scene: .default)
        let p0 = SimulatedScene.colorChartPatchCenter(0), p5 = SimulatedScene.colorChartPatchCenter(5)
        let wideSpan = wide.pixelLocation(of: p5, size: testSize)!.x - wide.pixelLocation(of: p0, size: testSize)!.x
        let teleSpan = tele.pixelLocation(of: p5, size: testSize)!.x - tele.pixelLocation(of: p0, size: testSize)!.x
        #expect(abs(teleSpan / wideSpan - 6.6 / 3.99 * 1.22 / 1.0) < 0.01)   // focal length over pixel pitch
        #expect(front.pixelLocation(of: p0, size: testSize) == nil)            // chart is behind the front camera
        #expect(wide.sceneRadiance(size: testSize) != tele.sceneRadiance(size: testSize))
        // Stereo parallax between wide and tele: a near point shifts more than a far one (after scaling).
        let scale = teleSpan / wideSpan
        func disparity(_ p: SIMD3<Double>) -> Double {
            let w = wide.pixelLocation(of: p, size: testSize)!.x - Double(testSize.width) / 2
            let t = tele.pixelLocation(of: p, size: testSize)!.x - Double(testSize.width) / 2
            return w * scale - t
        }
        #expect(disparity(SimulatedScene.nearObjectCenter) > 3 * disparity(SimulatedScene.backWallPoint))
    }

    @Test func chartIsLinearisedMacbeth() {
        let white = SimulatedScene.colorChartAlbedo(18), black = SimulatedScene.colorChartAlbedo(23)
        #expect(abs(white.y - 0.896) < 0.01 && abs(black.y - 0.0343) < 0.002)
        #expect(abs(SimulatedScene.colorChartAlbedo(21).y - 0.195) < 0.005)
    }
}
