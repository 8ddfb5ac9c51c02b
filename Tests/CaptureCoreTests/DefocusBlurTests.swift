import Foundation
import Testing
@testable import CaptureCore

@Suite struct DefocusBlurTests {
    /// A w×h single-channel raster from a function of (x, y).
    func raster(_ w: Int, _ h: Int, _ f: (Int, Int) -> Float) -> Raster<Float> {
        var r = Raster<Float>(width: w, height: h)
        for y in 0..<h { for x in 0..<w { r[x, y] = f(x, y) } }
        return r
    }

    @Test func aPointSpreadsIntoADiscOfTheBlurDiameter() {
        let w = 64, h = 64
        for diameter: Float in [3, 6, 12.4, 20] {
            let image = raster(w, h) { x, y in x == 32 && y == 32 ? 1000 : 0 }
            let out = DefocusBlur.blurred([image], cocDiameter: raster(w, h) { _, _ in diameter },
                                          depth: raster(w, h) { _, _ in 2 })[0]
            // Energy kept; spread as a uniform disc: the second moment of a disc of radius R about its centre is R²/2.
            var total = 0.0, moment = 0.0, peak: Float = 0
            for y in 0..<h {
                for x in 0..<w {
                    let v = Double(out[x, y]); total += v
                    moment += v * Double((x - 32) * (x - 32) + (y - 32) * (y - 32))
                    peak = max(peak, out[x, y])
                }
            }
            #expect(abs(total - 1000) < 0.05, "d \(diameter): total \(total)")
            let radius = Double(diameter) / 2
            let expected = radius * radius / 2 + 1.0 / 6   // + pixel-area variance (1/12 per axis)
            // (Pixel-area sampling of a disc only 3 px across sits ≈ 10 % below the continuous moment.)
            #expect(abs(moment / total - expected) / expected < (diameter < 4 ? 0.12 : 0.05),
                    "d \(diameter): \(moment / total) vs \(expected)")
            // Flat top: the centre holds 1000 / (π R²).
            #expect(abs(Double(out[32, 32]) - 1000 / (Double.pi * radius * radius)) / Double(out[32, 32]) < 0.08)
            // Nothing beyond the disc.
            #expect(out[32 + Int(radius.rounded(.up)) + 1, 32] == 0 && out[32, 32 - Int(radius.rounded(.up)) - 1] == 0)
        }
    }

    @Test func sharpPixelsAreUntouchedAndFlatRegionsKeepTheirMean() {
        let w = 48, h = 40
        let image = raster(w, h) { x, y in Float((x * 7 + y * 13) % 17) }
        let sharp = DefocusBlur.blurred([image], cocDiameter: raster(w, h) { _, _ in 0 }, depth: raster(w, h) { _, _ in 1 })[0]
        #expect(sharp == image)
        let flat = raster(w, h) { _, _ in 0.37 }
        let blurred = DefocusBlur.blurred([flat], cocDiameter: raster(w, h) { x, _ in Float(x) / 3 },
                                          depth: raster(w, h) { x, _ in 1 + Float(x) / 10 })[0]
        #expect(blurred.storage.allSatisfy { abs($0 - 0.37) < 1e-5 })
    }

    @Test func blurredForegroundSpreadsOverASharpBackgroundAndASharpForegroundKeepsItsEdge() {
        let w = 80, h = 40
        // Left half near (depth 1), right half far (depth 3), different colours in two channels.
        let image = Raster<Float>(width: w, height: h, channels: 2, storage: (0..<(w * h)).flatMap { i -> [Float] in
            i % w < 40 ? [1, 0] : [0, 1] })
        let depth = raster(w, h) { x, _ in x < 40 ? 1 : 3 }
        // Case 1: the far side is sharp, the near side blurred (diameter 10).
        let blurNear = DefocusBlur.blurred([image], cocDiameter: raster(w, h) { x, _ in x < 40 ? 10 : 0 }, depth: depth)[0]
        // The foreground's light reaches into the background (up to its radius) …
        #expect(blurNear[41, 20, 0] > 0.1 && blurNear[44, 20, 0] > 0.0)
        #expect(blurNear[46, 20, 0] == 0 && blurNear[46, 20, 1] == 1)
        // … and its own side never takes in the background colour (it is hidden there, not blurred in).
        for x in 0..<40 { #expect(blurNear[x, 20, 1] < 1e-6) }
        // Case 2: the near side is sharp, the far side blurred (diameter 10): no halo either way.
        let blurFar = DefocusBlur.blurred([image], cocDiameter: raster(w, h) { x, _ in x < 40 ? 0 : 10 }, depth: depth)[0]
        for y in 0..<h {
            for x in 0..<w {
                // Sharp foreground unchanged; the blurred background never gathers the foreground's colour.
                if x < 40 { #expect(blurFar[x, y, 0] == 1 && blurFar[x, y, 1] == 0) }
                else { #expect(abs(blurFar[x, y, 1] - 1) < 1e-6 && blurFar[x, y, 0] < 1e-6) }
            }
        }
    }

    @Test func largeDiscsBlurredAtReducedResolutionKeepEnergyShapeAndEdges() {
        let w = 256, h = 256, c = 128
        for diameter: Float in [40, 63, 100] {
            let radius = Double(diameter) / 2
            let factor = DefocusBlur.reduction(radius: Float(radius))
            #expect(factor >= 2, "d \(diameter) is blurred exactly")
            let image = raster(w, h) { x, y in x == c && y == c ? 1000 : 0 }
            let out = DefocusBlur.blurred([image], cocDiameter: raster(w, h) { _, _ in diameter },
                                          depth: raster(w, h) { _, _ in 2 })[0]
            var total = 0.0, moment = 0.0
            for y in 0..<h {
                for x in 0..<w {
                    let v = Double(out[x, y]); total += v
                    moment += v * Double((x - c) * (x - c) + (y - c) * (y - c))
                }
            }
            #expect(abs(total - 1000) < 5, "d \(diameter): total \(total)")
            // A disc's R²/2, widened by the block average and the bilinear read (f²/12 + f²/6 per axis).
            let f = Double(factor), expected = radius * radius / 2 + f * f / 2
            #expect(abs(moment / total - expected) / expected < 0.05, "d \(diameter): \(moment / total) vs \(expected)")
            #expect(abs(Double(out[c, c]) - 1000 / (Double.pi * radius * radius)) / Double(out[c, c]) < 0.1)
            // The edge softens over a block or two, no farther (every output pixel's disc lies inside the image).
            let beyond = Int((radius + 2 * f).rounded(.up)), within = Int((radius - f).rounded(.down))
            #expect(out[c + beyond, c] == 0 && out[c, c - beyond] == 0, "d \(diameter)")
            #expect(out[c + within, c] > 0 && out[c, c - within] > 0, "d \(diameter)")
        }
        // A flat region keeps its mean through reduced layers too, and a blurred background gathers no foreground.
        let flat = raster(w, h) { _, _ in 0.37 }
        let blurred = DefocusBlur.blurred([flat], cocDiameter: raster(w, h) { x, _ in Float(x) / 3 },
                                          depth: raster(w, h) { x, _ in 1 + Float(x) / 10 })[0]
        #expect(blurred.storage.allSatisfy { abs($0 - 0.37) < 1e-5 })
        let halves = Raster<Float>(width: w, height: h, channels: 2, storage: (0..<(w * h)).flatMap { i -> [Float] in
            i % w < c ? [1, 0] : [0, 1] })
        let far = DefocusBlur.blurred([halves], cocDiameter: raster(w, h) { x, _ in x < c ? 0 : 60 },
                                      depth: raster(w, h) { x, _ in x < c ? 1 : 3 })[0]
        for y in 0..<h {
            for x in 0..<w {
                if x < c { #expect(far[x, y, 0] == 1 && far[x, y, 1] == 0) }
                else { #expect(abs(far[x, y, 1] - 1) < 1e-5 && far[x, y, 0] < 1e-6) }
            }
        }
    }

    @Test func nanInputsDoNotTrap() {
        let w = 16, h = 12
        let image = raster(w, h) { x, _ in Float(x) }
        let out = DefocusBlur.blurred([image], cocDiameter: raster(w, h) { x, _ in x == 3 ? .nan : (x == 4 ? .infinity : 4) },
                                      depth: raster(w, h) { x, y in x == y ? .nan : 2 })[0]
        #expect(out.storage.allSatisfy { $0.isFinite })
    }

    @Test func manyChannelsRunInGroups() {
        let w = 20, h = 20
        let a = Raster<Float>(width: w, height: h, channels: 5, storage: (0..<(w * h * 5)).map { Float($0 % 5) })
        let b = raster(w, h) { _, _ in 2 }
        let out = DefocusBlur.blurred([a, b], cocDiameter: raster(w, h) { _, _ in 5 }, depth: raster(w, h) { _, _ in 1 })
        #expect(out[0].channels == 5 && out[1].channels == 1)
        for i in 0..<(w * h) {
            for c in 0..<5 { #expect(abs(out[0].storage[i * 5 + c] - Float(c)) < 1e-5) }
            #expect(abs(out[1].storage[i] - 2) < 1e-5)
        }
    }
}
