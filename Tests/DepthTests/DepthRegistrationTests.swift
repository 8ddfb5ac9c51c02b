import CaptureCore
import Testing
@testable import Depth

@Suite struct DepthRegistrationTests {
    let source = CameraCalibration(focalLength: SIMD2(80, 80), principalPoint: SIMD2(50, 40),
                                   referenceDimensions: Size(width: 100, height: 80), pixelSize: 0.01)

    /// A plane at 1.2 m with a 0.5 m box in front of it over columns 40..<60, rows 30..<50.
    func scene() -> Raster<Float> {
        var depth = Raster<Float>(width: 100, height: 80, channels: 1, repeating: 1.2)
        for y in 30..<50 { for x in 40..<60 { depth[x, y] = 0.5 } }
        return depth
    }

    @Test func sameCameraIsTheIdentity() {
        let out = DepthRegistration.register(depth: scene(), from: source, to: source)
        #expect(out == scene())
    }

    @Test func translationShiftsByParallaxAndNearestWins() {
        // Target 2 cm to the source's right: the source origin sits at x = −0.02 in the target frame.
        var target = source
        target.translation = SIMD3(-0.02, 0, 0)
        let out = DepthRegistration.register(depth: scene(), from: source, to: target)
        // Parallax f·t/Z: −1.33 px on the plane, −3.2 px on the box.
        #expect(out[10, 10] == 1.2 && out[80, 70] == 1.2)
        #expect(out[38, 40] == 0.5 && out[55, 40] == 0.5)   // the box, moved left by ≈ 3 px
        #expect(out[58, 40] == 1.2)                          // uncovered plane where the box was
        #expect(out[99, 40].isNaN)                           // nothing lands at the right edge
        let holes = out.storage.filter { $0.isNaN }.count
        #expect(holes < 3 * 80)  // no cracks elsewhere
    }

    @Test func depthAtAnotherSizeAndMissingValues() {
        var half = Raster<Float>(width: 50, height: 40, channels: 1, repeating: 2)
        half[25, 20] = .nan
        let out = DepthRegistration.register(depth: half, from: source, to: source)
        #expect(out.size == Size(width: 100, height: 80))
        // Each source pixel covers 2×2 target pixels but splats 2×2 around its centre: a 1-px grid of cracks
        // would be left without the splat's overlap; here every target pixel is covered except near the hole.
        #expect(out[10, 10] == 2 && out[11, 11] == 2)
        let holes = out.storage.filter { $0.isNaN }.count
        #expect(holes <= 4)
        let empty = DepthRegistration.register(depth: Raster<Float>(width: 0, height: 0), from: source, to: source)
        let allMissing = empty.storage.allSatisfy { $0.isNaN }
        #expect(allMissing)
    }
}
