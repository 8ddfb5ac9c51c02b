import CaptureCore
import Testing
@testable import CameraSimulation

@Suite struct PhotoPrintTests {
    @Test(arguments: [("parrots", PhotoPrint.parrots), ("motorcycles", PhotoPrint.motorcycles)])
    func embeddedPhotographsDecodeToNaturalContent(name: String, print: PhotoPrint) {
        // Not the blank fallback: the reflectance spans most of the paper's range and varies a lot.
        var values: [Double] = []
        for v in stride(from: 0.0, through: 1.0, by: 1.0 / 64) {
            for u in stride(from: 0.0, through: 1.0, by: 1.0 / 64) {
                let r = print.sample(u: u, v: v)
                values.append((r.x + r.y + r.z) / 3)
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let spread = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        #expect(spread > 0.05, "\(name): standard deviation \(spread)")
        #expect(values.min()! >= Double(PhotoPrint.paperBlack) - 1e-6 && values.max()! <= Double(PhotoPrint.paperWhite) + 1e-6)
    }

    @Test func parrotsAreRedAndYellowWhereKodakPutThem() {
        // kodim23: the scarlet macaw's red head right of centre, the blue-and-yellow macaw's yellow chest lower left.
        let red = PhotoPrint.parrots.sample(u: 0.62, v: 0.3), yellow = PhotoPrint.parrots.sample(u: 0.1, v: 0.78)
        #expect(red.x > 2 * red.y && red.x > 2 * red.z, "\(red)")
        #expect(yellow.x > 2 * yellow.z && yellow.y > 2 * yellow.z, "\(yellow)")
    }

    @Test func printsHangOnTheBackWallInFrames() {
        let renderer = SceneRenderer(scene: .default)
        for (photo, lo, hi) in [(PhotoPrint.parrots, SceneLayout.parrotsPrintMin, SceneLayout.parrotsPrintMax),
                                (PhotoPrint.motorcycles, SceneLayout.motorcyclePrintMin, SceneLayout.motorcyclePrintMax)] {
            let centre = (lo + hi) / 2
            let albedo = renderer.backWallAlbedo(SIMD3(centre.x, centre.y, SceneLayout.room.max.z))
            let expected = photo.sample(u: 0.5, v: 0.5)
            #expect(abs(albedo.x - expected.x) < 1e-9 && abs(albedo.y - expected.y) < 1e-9 && abs(albedo.z - expected.z) < 1e-9)
            // Black frame at the edge, white mat just inside it.
            let frame = renderer.backWallAlbedo(SIMD3(lo.x + 0.005, centre.y, SceneLayout.room.max.z))
            let mat = renderer.backWallAlbedo(SIMD3(lo.x + SceneLayout.printFrame + 0.01, centre.y, SceneLayout.room.max.z))
            #expect(frame.x < 0.1 && mat.x > 0.8)
        }
    }
}
