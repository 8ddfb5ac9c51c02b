import Foundation
import CaptureCore
import Testing
@testable import Fusion

@Suite struct DeghostingTests {
    static let width = 256, height = 192, side = 32
    /// Where the moving object is in each frame (the reference, frame 1, in the middle of the bracket).
    static let positions = [(112, 96), (40, 80), (184, 40)]
    static let gains = [0.25, 1.0, 4.0]

    /// A −2/0/+2 EV bracket of a textured wall with a dark blue object; `moving` puts the object at
    /// `positions[k]` in frame k, otherwise at the reference's position in every frame (the truth).
    static func bracket(moving: Bool) -> [Raster<UInt8>] {
        let texture = TestScenes.texture(width: width, height: height, seed: 7, squares: 40)
        return gains.indices.map { k in
            let (ox, oy) = positions[moving ? k : 1]
            var scene = TestScenes.radiance(texture, width: width, height: height) { _, _ in 0.3 }
            for y in oy..<(oy + side) {
                for x in ox..<(ox + side) {
                    for (c, v) in [Float(0.02), 0.03, 0.09].enumerated() { scene[x, y, c] = v }
                }
            }
            return TestScenes.capture(scene, exposure: gains[k])
        }
    }

    /// Mean absolute difference over the squares where the object stood in the non-reference frames.
    static func ghost(_ fused: Raster<UInt8>, _ truth: Raster<UInt8>) -> Double {
        var total = 0.0, n = 0.0
        for k in [0, 2] {
            let (ox, oy) = positions[k]
            for y in oy..<(oy + side) { for x in ox..<(ox + side) { for c in 0..<3 {
                total += abs(Double(fused[x, y, c]) - Double(truth[x, y, c])); n += 1
            } } }
        }
        return total / n
    }

    @Test func aMovingObjectLeavesNoGhost() throws {
        let still = Self.bracket(moving: false), moving = Self.bracket(moving: true)
        // Ghost without deghosting: the moving bracket's fusion against the still bracket's.
        let before = Self.ghost(try ExposureFusion().fuse(moving), try ExposureFusion().fuse(still))
        // With deghosting: against the still bracket fused with the same per-frame weights, so what is left
        // is only object content that leaked through.
        let weights = GhostDetector().consistency(moving, reference: 1)
        let deghosted = try ExposureFusion().fuse(moving, deghostingAgainst: 1)
        let truth = try ExposureFusion().fuse(still, consistency: weights, progress: nil)
        let after = Self.ghost(deghosted, truth)
        #expect(before > 5, "ghost without deghosting \(before)")
        #expect(after < 0.1 * before && after < 1, "ghost with deghosting \(after) (without: \(before))")
        // The detector rejected each frame where the object was, in that frame or in the reference, and
        // nowhere far from both.
        for k in [0, 2] {
            let map = try #require(weights[k])
            for (x, y) in [Self.positions[k], Self.positions[1]] {
                #expect(map.value(x: Double(x + Self.side / 2), y: Double(y + Self.side / 2)) < 0.01)
            }
            #expect(map.value(x: 4, y: Double(Self.height - 4)) == 1)
        }
        // Where the reference saw it, the object stays as the reference frame shows it.
        let (ox, oy) = Self.positions[1]
        var error = 0.0
        for y in (oy + 4)..<(oy + Self.side - 4) { for x in (ox + 4)..<(ox + Self.side - 4) { for c in 0..<3 {
            error += abs(Double(deghosted[x, y, c]) - Double(moving[1][x, y, c]))
        } } }
        #expect(error / Double(3 * (Self.side - 8) * (Self.side - 8)) < 6)
    }

    /// Where the reference is blown and the one frame exposed for it saw the moving object, the HDR keeps the
    /// reference's lower bound there: no ghost at the object's spot in the darker frame, and none of the darker
    /// frame's background inside the object where the reference saw it clipped.
    @Test func theHDRBringsNoGhostBackWhereTheReferenceIsClipped() throws {
        let texture = TestScenes.texture(width: Self.width, height: Self.height, seed: 11, squares: 40)
        // A bright sky (clipped at 0 EV, well exposed at −2 EV) over the top half; a pale object (clipped at 0 EV too).
        func frame(_ k: Int, objectAt position: (Int, Int)) -> (Raster<Float>, Raster<UInt8>) {
            var scene = TestScenes.radiance(texture, width: Self.width, height: Self.height) { _, y in y < 112 ? 1.8 : 0.3 }
            let (ox, oy) = position
            for y in oy..<(oy + Self.side) {
                for x in ox..<(ox + Self.side) { for (c, v) in [Float(1.2), 0.2, 0.1].enumerated() { scene[x, y, c] = v } }
            }
            return (scene, TestScenes.capture(scene, exposure: Self.gains[k]))
        }
        let spots = [(40, 40), (150, 40), (200, 150)]
        let frames = Self.gains.indices.map { frame($0, objectAt: spots[$0]) }
        let images = frames.map(\.1)
        let truth = frames[1].0
        let consistency = GhostDetector().consistency(images, reference: 1)
        let linear = images.map { image in
            Raster<Float>(width: image.width, height: image.height, channels: 3,
                          storage: image.storage.map { SRGBTransfer.decodeTable8[Int($0)] })
        }
        let hdr = try HDRMerge().merge(linear: linear, exposures: Self.gains, saturation: 1, consistency: consistency)
        // log2 error against the reference's truth, where the reference is clipped: at most its lower bound's.
        func worst(at spot: (Int, Int)) -> Float {
            var result: Float = 0
            for y in (spot.1 + 4)..<(spot.1 + Self.side - 4) {
                for x in (spot.0 + 4)..<(spot.0 + Self.side - 4) {
                    for c in 0..<3 {
                        let bound = min(truth[x, y, c], 1)   // what the clipped reference can vouch for
                        result = max(result, max(0, log2(bound / max(hdr[x, y, c], 1e-6))))
                    }
                }
            }
            return result
        }
        #expect(worst(at: spots[0]) < 0.2, "the object's spot in the −2 EV frame: \(worst(at: spots[0])) EV below")
        #expect(worst(at: spots[1]) < 0.2, "the object where the reference saw it: \(worst(at: spots[1])) EV below")
        // Without the consistency the −2 EV frame's object comes back (the test can fail).
        let ghosted = try HDRMerge().merge(linear: linear, exposures: Self.gains, saturation: 1)
        #expect(ghosted[56, 56, 2] < 0.5 * truth[56, 56, 2])
    }

    @Test func aStillBracketIsLeftAlone() throws {
        let still = Self.bracket(moving: false)
        let plain = try ExposureFusion().fuse(still), deghosted = try ExposureFusion().fuse(still, deghostingAgainst: 1)
        var worst = 0
        for i in plain.storage.indices { worst = max(worst, abs(Int(plain.storage[i]) - Int(deghosted.storage[i]))) }
        #expect(worst <= 2, "largest change \(worst)")
        let weights = GhostDetector().consistency(still, reference: 1)
        #expect(weights[1] == nil)
        for map in weights.compactMap({ $0 }) { #expect(map.values.min() ?? 0 > 0.95) }
    }

    @Test func referenceMustExist() {
        #expect(throws: FusionError.referenceOutOfRange(3)) { try ExposureFusion().fuse(Self.bracket(moving: false), deghostingAgainst: 3) }
    }
}
