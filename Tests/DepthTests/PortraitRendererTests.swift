import CaptureCore
import Foundation
import Testing
@testable import Depth

@Suite struct PortraitRendererTests {
    static let w = 400, h = 300

    /// Left half a textured plane at 1 m, right half a dark plane at 4 m with one bright point (a highlight).
    func scene() -> (Raster<Float>, DepthMap) {
        var image = Raster<Float>(width: PortraitRendererTests.w, height: PortraitRendererTests.h, channels: 3)
        var disparity = Raster<Float>(width: PortraitRendererTests.w, height: PortraitRendererTests.h)
        for y in 0..<PortraitRendererTests.h {
            for x in 0..<PortraitRendererTests.w {
                let near = x < 200
                let v: Float = near ? ((x / 3 + y / 3) % 2 == 0 ? 0.8 : 0.2) : 0.01
                for c in 0..<3 { image[x, y, c] = v }
                disparity[x, y] = near ? 1 : 0.25
            }
        }
        for c in 0..<3 { image[300, 150, c] = 50 }
        return (image, DepthMap(values: disparity, kind: .disparity, accuracy: .absolute, isFiltered: true))
    }

    /// The diameter of the disc the highlight at (300, 150) became, from its second moment R²/2 (+ 1/6 for the pixel)
    /// within `reach` pixels, and the light in it (above the dark background).
    static func highlightDisc(_ out: Raster<Float>, reach: Int) -> (diameter: Double, total: Double) {
        var total = 0.0, moment = 0.0
        for y in 150 - reach..<150 + reach {
            for x in 300 - reach..<300 + reach {
                let v = Double(out[x, y, 1]) - 0.01
                total += v
                moment += v * Double((x - 300) * (x - 300) + (y - 150) * (y - 150))
            }
        }
        return (2 * (2 * (moment / total - 1.0 / 6)).squareRoot(), total)
    }

    /// Full-frame 50 mm f/2 focused at 1 m, a 4 m background, a 400×300 photo (diagonal 500 px):
    /// c = A·F·s/(s − F)·|Δd| = 0.025 · 0.05 / 0.95 · 0.75 m = 0.987 mm on a 43.27 mm diagonal → 11.4 px.
    static let expectedDiameter = 0.025 * 0.05 / 0.95 * 0.75 * 500 / (0.036 * 0.036 + 0.024 * 0.024).squareRoot()

    @Test func focusPlaneStaysSharpAndTheBackgroundBlursByTheFormula() throws {
        let (image, depth) = scene()
        let out = try PortraitRenderer.render(image: image, depth: depth, aperture: 2, focalLength35mmEquivalent: 50,
                                              focusDisparity: 1)
        // The focus plane is untouched up to its edge (the sharp side has no halo).
        for y in 0..<PortraitRendererTests.h { for x in 0..<199 { for c in 0..<3 { #expect(out[x, y, c] == image[x, y, c]) } } }
        // The highlight became a disc of the formula's diameter.
        let (diameter, total) = Self.highlightDisc(out, reach: 30)
        #expect(abs(total - (50 - 0.01)) < 0.05, "highlight energy \(total)")
        #expect(abs(diameter - PortraitRendererTests.expectedDiameter) / PortraitRendererTests.expectedDiameter < 0.05,
                "disc \(diameter) px, formula \(PortraitRendererTests.expectedDiameter) px")
        // The dark background next to the edge takes in no light from the sharp foreground.
        for y in 0..<PortraitRendererTests.h { for x in 200..<210 { #expect(abs(out[x, y, 0] - 0.01) < 1e-5) } }
    }

    @Test func centreSubjectByDefaultAndDepthInMetresOfAnySizeWithHoles() throws {
        // A near square (1 m) in the middle of a far plane (4 m) with a highlight; depth in metres at a quarter of
        // the image size, with NaN holes: upsampled, holes filled, no trap, and the centre subject is in focus.
        let w = PortraitRendererTests.w, h = PortraitRendererTests.h
        var image = Raster<Float>(width: w, height: h, channels: 3)
        for y in 0..<h {
            for x in 0..<w {
                let near = x >= 150 && x < 250 && y >= 100 && y < 200
                for c in 0..<3 { image[x, y, c] = near ? ((x / 2 + y / 2) % 2 == 0 ? 0.9 : 0.1) : 0.02 }
            }
        }
        for c in 0..<3 { image[60, 60, c] = 40 }
        var metres = Raster<Float>(width: 100, height: 75)
        for y in 0..<75 {
            for x in 0..<100 {
                let near = x >= 37 && x < 63 && y >= 25 && y < 50
                metres[x, y] = (x * 3 + y) % 11 == 0 ? .nan : (near ? 1 : 4)
            }
        }
        let depth = DepthMap(values: metres, kind: .depth, accuracy: .absolute, isFiltered: false)
        let out = try PortraitRenderer.render(image: image, depth: depth, aperture: 2, focalLength35mmEquivalent: 50,
                                              focusDisparity: nil)
        #expect(out.storage.allSatisfy { $0.isFinite })
        for y in 108..<192 { for x in 158..<242 { #expect(out[x, y, 1] == image[x, y, 1]) } }
        #expect(out[60, 60, 1] < 1, "the far highlight is spread over ≈ 100 pixels")
        #expect(abs(PortraitRenderer.centreDisparity(try PortraitRenderer.disparityMap(depth, size: image.size)) - 1) < 1e-6)
    }

    /// The widest aperture at the nearest focus would blur the background by a disc larger than the photo: the disc
    /// stops at a 25th of the diagonal (20 px here), and the render finishes at once.
    @Test func theLargestDiscIsAFractionOfThePhoto() throws {
        let (image, depth) = scene()
        let out = try PortraitRenderer.render(image: image, depth: depth, aperture: PortraitRenderer.widestAperture,
                                              focalLength35mmEquivalent: 50, focusDisparity: Float(1 / PortraitRenderer.nearestFocus))
        let diameter = Self.highlightDisc(out, reach: 50).diameter
        #expect(abs(diameter - 20) < 1.5, "highlight disc \(diameter) px")
    }

    @Test func badInputsThrow() {
        let (image, depth) = scene()
        let grey = Raster<Float>(width: 4, height: 4, channels: 1)
        #expect(throws: DepthError.self) {
            try PortraitRenderer.render(image: grey, depth: depth, aperture: 2, focalLength35mmEquivalent: 50, focusDisparity: nil)
        }
        #expect(throws: DepthError.self) {
            try PortraitRenderer.render(image: image, depth: depth, aperture: 0, focalLength35mmEquivalent: 50, focusDisparity: nil)
        }
        #expect(throws: DepthError.self, "wider than f/0.95") {
            try PortraitRenderer.render(image: image, depth: depth, aperture: 0.5, focalLength35mmEquivalent: 50, focusDisparity: nil)
        }
        #expect(throws: DepthError.self, "focused nearer than 5 cm") {
            try PortraitRenderer.render(image: image, depth: depth, aperture: 2, focalLength35mmEquivalent: 50, focusDisparity: 1000)
        }
        let empty = DepthMap(values: Raster<Float>(width: 3, height: 3, repeating: .nan), kind: .disparity,
                             accuracy: .relative, isFiltered: false)
        #expect(throws: DepthError.self) {
            try PortraitRenderer.render(image: image, depth: empty, aperture: 2, focalLength35mmEquivalent: 50, focusDisparity: nil)
        }
    }
}
