import CameraSimulation
import CaptureCore
import Foundation
import Testing
@testable import Depth

/// Photos and depth maps rendered by the simulator, with the simulator's true person mask to score against.
enum MatteFixture {
    static let imageSize = Size(width: 1008, height: 756)

    /// Scene radiance as a display-referred photo: a white wall at 1.0 before a 1/2.2 gamma, clipped.
    static func photo(_ camera: SimulatedCamera) -> Raster<Float> {
        var r = camera.sceneRadiance(size: imageSize)
        let white = Float(camera.scene.lighting.interiorIlluminance / Double.pi)
        r.storage = r.storage.map { powf(min(max($0 / white, 0), 1), 1 / 2.2) }
        return r
    }

    /// Ground-truth z-depth at `size` degraded like a measurement: Gaussian noise of `sigma(value)` on the returned
    /// quantity, foreground edges fattened by one pixel left and right, 2-pixel holes beside every left edge of a nearer surface (the stereo occlusion side), and ≈ 3 % of
    /// the map in random square holes.
    static func measured(_ camera: SimulatedCamera, size: Size, disparity: Bool, seed: UInt64,
                         sigma: (Float) -> Float) -> Raster<Float> {
        let z = camera.depthMap(size: size)
        var values = z.storage.map { disparity ? 1 / $0 : $0 }
        var random = RandomSource(seed: seed)
        let truth = values
        for i in values.indices { values[i] += sigma(truth[i]) * Float(random.nextGaussian()) }
        let w = size.width, h = size.height
        // Matchers fatten foreground edges: each pixel takes the nearer of itself and its left and right neighbours.
        let sharp = values
        for y in 0..<h {
            for x in 1..<(w - 1) {
                let i = y * w + x
                values[i] = disparity ? max(sharp[i - 1], sharp[i], sharp[i + 1]) : min(sharp[i - 1], sharp[i], sharp[i + 1])
            }
        }
        for y in 0..<h {
            for x in 2..<(w - 1) {
                let here = 1 / z[x, y], right = 1 / z[x + 1, y]
                if right - here > 0.05 * right { values[y * w + x] = .nan; values[y * w + x - 1] = .nan }
            }
        }
        let holes = w * h * 3 / 100 / 25
        for _ in 0..<holes {
            let cx = Int(random.next() % UInt64(w)), cy = Int(random.next() % UInt64(h)), s = 2 + Int(random.next() % 3)
            for y in max(0, cy - s)..<min(h, cy + s) { for x in max(0, cx - s)..<min(w, cx + s) { values[y * w + x] = .nan } }
        }
        return Raster(width: w, height: h, channels: 1, storage: values)
    }

    /// Intersection over union of the two masks cut at ½, and the soft version Σmin / Σmax.
    static func iou(_ a: Raster<Float>, _ b: Raster<Float>) -> (binary: Double, soft: Double) {
        var inter = 0, union = 0, softMin = 0.0, softMax = 0.0
        for i in a.storage.indices {
            let x = a.storage[i] >= 0.5, y = b.storage[i] >= 0.5
            if x && y { inter += 1 }
            if x || y { union += 1 }
            softMin += Double(min(a.storage[i], b.storage[i])); softMax += Double(max(a.storage[i], b.storage[i]))
        }
        return (union == 0 ? 1 : Double(inter) / Double(union), softMax == 0 ? 1 : softMin / softMax)
    }

    static func normalised(_ point: SIMD3<Double>, _ camera: SimulatedCamera) -> SIMD2<Double> {
        let c = camera.pixelLocation(of: point, size: imageSize)!
        return SIMD2(c.x / Double(imageSize.width), c.y / Double(imageSize.height))
    }
}

@Suite struct PortraitMatteEstimatorTests {
    // IoU ≥ 0.9: the tele sees the back person's head (≈ 11 000 px, outline ≈ 400 px) above the easel board; one
    // pixel of error all along the outline costs ≈ 2 × 400 / 11 000 ≈ 7 % of IoU, so 0.9 asks for edges within about
    // one pixel on average from a depth map at 0.76× the photo's scale, noisy and with holes at the very edges.
    @Test func backPersonInTheTelephotoPhoto() throws {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default)
        // Stereo noise of the 1 cm tele–wide pair: 0.12 px of disparity at 768 px wide (f·B ≈ 12.6 px·m) ≈ 0.01 /m.
        let values = MatteFixture.measured(camera, size: Size(width: 768, height: 576), disparity: true, seed: 7) { _ in 0.01 }
        let depth = DepthMap(values: values, kind: .disparity, accuracy: .relative, isFiltered: false)
        let face = MatteFixture.normalised(SimulatedScene.backPersonFaceCenter, camera)
        let matte = try #require(try PortraitMatteEstimator.estimate(image: MatteFixture.photo(camera), depth: depth, subjectPoint: face))
        #expect(matte.size == MatteFixture.imageSize && matte.channels == 1)
        let score = MatteFixture.iou(matte, camera.personMask(size: MatteFixture.imageSize))
        print("back person (tele 1008×756, disparity 768×576): IoU \(score.binary), soft IoU \(score.soft)")
        #expect(score.binary >= 0.9, "IoU \(score.binary)")
        // The board in front of the person and the wall behind stay out.
        let board = camera.pixelLocation(of: SimulatedScene.colorChartPatchCenter(3), size: MatteFixture.imageSize)!
        #expect(matte[Int(board.x), Int(board.y)] < 0.05)
    }

    @Test func relativeScaleOffsetAndDepthKindDoNotMatter() throws {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default)
        let noisy = MatteFixture.measured(camera, size: Size(width: 768, height: 576), disparity: true, seed: 7) { _ in 0.02 }
        let photo = MatteFixture.photo(camera), face = MatteFixture.normalised(SimulatedScene.backPersonFaceCenter, camera)
        let plain = try #require(try PortraitMatteEstimator.estimate(
            image: photo, depth: DepthMap(values: noisy, kind: .disparity, accuracy: .relative, isFiltered: false), subjectPoint: face))
        // Relative disparity known only up to scale and offset (e.g. in pixels): the same matte.
        var scaled = noisy
        scaled.storage = noisy.storage.map { 12.6 * $0 + 0.3 }
        let shifted = try #require(try PortraitMatteEstimator.estimate(
            image: photo, depth: DepthMap(values: scaled, kind: .disparity, accuracy: .relative, isFiltered: false), subjectPoint: face))
        #expect(MatteFixture.iou(plain, shifted).binary > 0.995)
        // The same measurement handed over as depth in metres.
        let metres = DepthMap(values: noisy, kind: .disparity, accuracy: .absolute, isFiltered: false).converted(to: .depth)
        let fromDepth = try #require(try PortraitMatteEstimator.estimate(image: photo, depth: metres, subjectPoint: face))
        #expect(MatteFixture.iou(plain, fromDepth).binary > 0.995)
        // Twice the stereo noise (0.25 px at 768 px wide) still gives the person.
        let score = MatteFixture.iou(plain, camera.personMask(size: MatteFixture.imageSize))
        print("back person, disparity noise 0.02 /m: IoU \(score.binary), soft IoU \(score.soft)")
        #expect(score.binary >= 0.9, "IoU \(score.binary)")
    }

    @Test(arguments: [true, false])
    func frontPersonInTheTrueDepthPhoto(withSubjectPoint: Bool) throws {
        let camera = SimulatedCamera(module: .frontTrueDepth, scene: .default)
        // Structured-light depth in metres at 640×480, noise growing with the square of the distance (2 mm at 0.45 m).
        let values = MatteFixture.measured(camera, size: Size(width: 640, height: 480), disparity: false, seed: 9) { z in
            0.002 * (z / 0.45) * (z / 0.45)
        }
        let depth = DepthMap(values: values, kind: .depth, accuracy: .absolute, isFiltered: false)
        let point = withSubjectPoint ? MatteFixture.normalised(SimulatedScene.faceCenter, camera) : nil
        let matte = try #require(try PortraitMatteEstimator.estimate(image: MatteFixture.photo(camera), depth: depth, subjectPoint: point))
        let score = MatteFixture.iou(matte, camera.personMask(size: MatteFixture.imageSize))
        print("front person (TrueDepth 1008×756, depth 640×480, subject point \(withSubjectPoint)): IoU \(score.binary), soft IoU \(score.soft)")
        #expect(score.binary >= 0.9, "IoU \(score.binary)")
    }

    @Test func noMatteWithoutASubjectInFront() throws {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default)
        let values = MatteFixture.measured(camera, size: Size(width: 768, height: 576), disparity: true, seed: 8) { _ in 0.01 }
        let depth = DepthMap(values: values, kind: .disparity, accuracy: .relative, isFiltered: false)
        // The back wall between window and poster: only the window's outside lies behind it, inside its outline.
        let wall = MatteFixture.normalised(SIMD3(0.1, 0.75, 4), camera)
        #expect(try PortraitMatteEstimator.estimate(image: MatteFixture.photo(camera), depth: depth, subjectPoint: wall) == nil)
        // A flat map: nothing stands in front of anything.
        let flat = DepthMap(values: Raster(width: 64, height: 48, repeating: 0.5), kind: .disparity, accuracy: .relative, isFiltered: true)
        let grey = Raster<Float>(width: 128, height: 96, channels: 3, repeating: 0.4)
        #expect(try PortraitMatteEstimator.estimate(image: grey, depth: flat, subjectPoint: nil) == nil)
    }

    @Test func badInputThrowsTypedErrors() {
        let image = Raster<Float>(width: 32, height: 24, channels: 3, repeating: 0.5)
        let depth = DepthMap(values: Raster(width: 16, height: 12, repeating: 1), kind: .depth, accuracy: .absolute, isFiltered: true)
        #expect(throws: DepthError.self) {
            try PortraitMatteEstimator.estimate(image: Raster(width: 32, height: 24, channels: 1, repeating: 0), depth: depth, subjectPoint: nil)
        }
        #expect(throws: DepthError.invalidParameter("subject point SIMD2<Double>(1.5, 0.5) outside 0…1")) {
            try PortraitMatteEstimator.estimate(image: image, depth: depth, subjectPoint: SIMD2(1.5, 0.5))
        }
        let empty = DepthMap(values: Raster(width: 16, height: 12, repeating: .nan), kind: .disparity, accuracy: .relative, isFiltered: false)
        #expect(throws: DepthError.noData("the depth map has no finite value")) {
            try PortraitMatteEstimator.estimate(image: image, depth: empty, subjectPoint: nil)
        }
    }

    @Test func boxMeanAndGuidedFilterBasics() {
        // Box mean of a ramp inside the image is the ramp; at the border the clipped window averages what it holds.
        let ramp = (0..<(20 * 10)).map { Float($0 % 20) }
        let box = GuidedFilter.boxMean(ramp, width: 20, height: 10, channels: 1, radius: 2)
        #expect(abs(box[5 * 20 + 10] - 10) < 1e-4)
        #expect(abs(box[5 * 20 + 0] - 1) < 1e-4)   // (0 + 1 + 2) / 3
        // A step in the input that the guide also has survives; where the guide is flat, the input is smoothed.
        let w = 40, h = 8
        var input = [Float](repeating: 0, count: w * h), guide = [Float](repeating: 0.2, count: 3 * w * h)
        for y in 0..<h { for x in 20..<w { input[y * w + x] = 1; for c in 0..<3 { guide[3 * (y * w + x) + c] = 0.8 } } }
        let sharp = GuidedFilter.filter(input: input, guide: guide, width: w, height: h, radius: 3, epsilon: 1e-4)
        #expect(sharp[4 * w + 19] < 0.05 && sharp[4 * w + 20] > 0.95)
        let flat = GuidedFilter.filter(input: input, guide: [Float](repeating: 0.5, count: 3 * w * h), width: w, height: h,
                                       radius: 3, epsilon: 1e-4)
        #expect(flat[4 * w + 19] > 0.3 && flat[4 * w + 19] < 0.6)
    }

    @Test func upsamplingIsRegisteredToPixelCentres() {
        // A 2×1 map [0, 1] to 4 pixels: centres at source x = −0.25, 0.25, 0.75, 1.25 → 0, 0.25, 0.75, 1 (edges clamped).
        let up = PortraitMatteEstimator.upsample([0, 1], from: Size(width: 2, height: 1), to: Size(width: 4, height: 1))
        #expect(up == [0, 0.25, 0.75, 1])
        var holes: [Float] = [0.5, .nan, .nan, 2, .nan]
        PortraitMatteEstimator.fillHolesFromFartherSide(&holes, width: 5, height: 1)
        #expect(holes == [0.5, 0.5, 0.5, 2, 2])
    }
}

