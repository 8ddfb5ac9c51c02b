import CaptureCore
import Testing
@testable import CameraSimulation

@Suite struct PersonTests {
    static let teleSize = Size(width: 1008, height: 756)

    /// Every landmark the older tests measure, with what must be hit there.
    static var landmarks: [(name: String, point: SIMD3<Double>)] {
        var list: [(String, SIMD3<Double>)] = (0..<24).map { ("chart patch \($0)", SimulatedScene.colorChartPatchCenter($0)) }
        list += [("mid-grey panel", SimulatedScene.midGreyPanelCenter), ("zone plate", SimulatedScene.zonePlateCenter),
                 ("near box", SimulatedScene.nearObjectCenter), ("back wall", SimulatedScene.backWallPoint),
                 ("window sky", SimulatedScene.windowSkyPoint), ("sofa", SimulatedScene.farObjectCenter),
                 ("ball", SceneLayout.ballCenter)]
        return list
    }

    @Test(arguments: [CameraModule.backWide, .backTelephoto])
    func landmarkRaysStayClearOfTheBackPerson(_ module: CameraModule) {
        let renderer = SceneRenderer(scene: .default)
        for (name, point) in PersonTests.landmarks {
            let hit = renderer.hit(origin: module.lensPosition, direction: point - module.lensPosition)
            #expect(!hit.surface.isPerson, "\(module.name): \(name) hidden by the person")
            if name == "ball" {
                #expect(hit.surface == .ball, "\(module.name): ball hidden by \(hit.surface)")
            } else {
                #expect(abs(hit.t - 1) < 1e-6, "\(module.name): \(name) hidden by \(hit.surface) at t = \(hit.t)")
            }
        }
    }

    @Test func backPersonStandsWherePortraitModeWorksAndTouchesNothing() {
        let renderer = SceneRenderer(scene: .default)
        let tele = CameraModule.backTelephoto, wide = CameraModule.backWide
        let face = SimulatedScene.backPersonFaceCenter
        #expect(face.z > 1.2 && face.z < 2.5)
        for (module, point) in [(tele, face), (tele, SimulatedScene.backPersonHairPoint), (wide, face), (wide, SimulatedScene.backPersonLegPoint)] {
            let hit = renderer.hit(origin: module.lensPosition, direction: point - module.lensPosition)
            let miss = abs(hit.t - 1) * ((point - module.lensPosition) * (point - module.lensPosition)).sum().squareRoot()
            #expect(hit.surface.isPerson && miss < 0.005, "\(module.name) sees \(hit.surface) \(miss) m off")
        }
        // The legs stand clear of the ball; the bounds hold every part.
        let legInner = SceneLayout.backBodyAxis.x - SceneLayout.backLegOffset - SceneLayout.backLegRadius
        #expect(legInner > SceneLayout.ballCenter.x + SceneLayout.ballRadius)
        let b = SceneLayout.backPersonBounds, head = SceneLayout.backHeadCenter, r = SceneLayout.backHeadRadius
        #expect(b.min.x < head.x - r && b.max.x > head.x + r && b.max.y > head.y + r && b.min.z < head.z - r)
        #expect(b.min.x < SceneLayout.backBodyAxis.x - SceneLayout.backTorsoSemiAxes.x
                && b.min.x < SceneLayout.backBodyAxis.x - SceneLayout.backShoulderHalfLength - SceneLayout.backShoulderRadius)
        #expect(b.min.z < SceneLayout.backBodyAxis.y - SceneLayout.backTorsoSemiAxes.y
                && b.max.z > SceneLayout.backBodyAxis.y + SceneLayout.backTorsoSemiAxes.y)
    }

    @Test func telephotoSeesTheBackPersonsHeadAboveTheBoard() {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default)
        let size = PersonTests.teleSize
        let mask = camera.personMask(size: size)
        let c = camera.pixelLocation(of: SimulatedScene.backPersonFaceCenter, size: size)!
        #expect(c.x > 0 && c.x < Double(size.width) && c.y > 0 && c.y < Double(size.height))
        #expect(mask[Int(c.x), Int(c.y)] > 0.99)
        let depth = camera.depthMap(size: size)[Int(c.x), Int(c.y)]
        #expect(abs(Double(depth) - SimulatedScene.backPersonFaceCenter.z) < 0.01, "face at \(depth) m")
        // Head and neck (≈ 0.18 m wide at 2.45 m with f = 1650 px) cover ≈ 13 400 pixels; the legs stay hidden by the ledge.
        let area = mask.storage.reduce(0, +)
        #expect(area > 12_000 && area < 15_000, "person area \(area) px")
        #expect((0..<size.width).allSatisfy { mask[$0, size.height - 1] == 0 }, "legs seen below the board")
        // The wall beside the head and the board below it are not the person.
        let wall = camera.pixelLocation(of: SIMD3(0.1, 0.75, 4), size: size)!
        #expect(mask[Int(wall.x), Int(wall.y)] == 0)
        let chart = camera.pixelLocation(of: SimulatedScene.colorChartPatchCenter(5), size: size)!
        #expect(mask[Int(chart.x), Int(chart.y)] == 0)
    }

    @Test func maskIsCoverageWithAntiAliasedEdges() {
        let size = Size(width: 320, height: 240)
        for (module, face) in [(CameraModule.backWide, SimulatedScene.backPersonFaceCenter),
                               (.frontTrueDepth, SimulatedScene.faceCenter)] {
            let camera = SimulatedCamera(module: module, scene: .default)
            let mask = camera.personMask(size: size)
            let c = camera.pixelLocation(of: face, size: size)!
            #expect(mask[Int(c.x), Int(c.y)] > 0.99, "\(module.name)")
            #expect(mask.storage.allSatisfy { $0 >= 0 && $0 <= 1 })
            // Partial coverage exists, and only next to both full and empty pixels (along the silhouette).
            var partial = 0, stray = 0
            for y in 1..<(size.height - 1) {
                for x in 1..<(size.width - 1) {
                    let m = mask[x, y]
                    guard m > 0.01, m < 0.99 else { continue }
                    partial += 1
                    var full = false, empty = false
                    for dy in -1...1 { for dx in -1...1 { let n = mask[x + dx, y + dy]; full = full || n > 0.99; empty = empty || n < 0.01 } }
                    if !(full || empty) { stray += 1 }
                }
            }
            #expect(partial > 50, "\(module.name): \(partial) partial pixels")
            #expect(stray * 20 < partial, "\(module.name): \(stray) of \(partial) partial pixels away from the silhouette")
            // Cached: the same storage again.
            #expect(camera.personMask(size: size) == mask)
        }
        let wide = SimulatedCamera(module: .backWide, scene: .default)
        let wall = wide.pixelLocation(of: SimulatedScene.backWallPoint, size: size)!
        #expect(wide.personMask(size: size)[Int(wall.x), Int(wall.y)] == 0)
        let leg = wide.pixelLocation(of: SimulatedScene.backPersonLegPoint, size: size)!
        #expect(wide.personMask(size: size)[Int(leg.x), Int(leg.y)] > 0.99)
    }
}
