import CaptureCore
import Foundation
import Testing
@testable import Fusion

@Suite struct ToneMapperTests {
    @Test func uniformMiddleGreyStaysMiddleGrey() {
        let grey = Raster<Float>(width: 16, height: 16, channels: 3, repeating: 7.5)
        let rendered = ToneMapper().render(grey)
        // Exposed to 0.18 and passed through: sRGB(0.18) ≈ 118.
        #expect(rendered.storage.allSatisfy { abs(Int($0) - 118) <= 1 })
    }

    @Test func compressesHighDynamicRangeMonotonically() {
        let w = 256
        let ramp = Raster<Float>(width: w, height: 1, channels: 3,
                                 storage: (0..<w).flatMap { x in Array(repeating: Float(0.001 * pow(1e5, Double(x) / 255)), count: 3) })
        let rendered = ToneMapper().render(ramp)
        let values = (0..<w).map { rendered[$0, 0, 1] }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.first! < 10 && values.last! >= 250)
        #expect(Set(values).count > 150)  // most of five decades keep distinct levels
    }

    /// A room at radiance 1 with a "window" 64 × brighter carrying ±0.25 EV stripes: the local tone map brings the
    /// window into range with its stripes, so little of it meets white, where the global curve alone leaves it there.
    static func room(windowLevel: Float = 64) -> Raster<Float> {
        var hdr = Raster<Float>(width: 192, height: 144, channels: 3, repeating: 1)
        for y in 48..<96 {
            for x in 64..<128 {
                let detail: Float = (x / 4) % 2 == 0 ? 1.19 : 0.84
                // A blue sky: its strongest channel above its luminance.
                for (c, tint) in [Float(0.8), 0.95, 1.3].enumerated() { hdr[x, y, c] = windowLevel * detail * tint }
            }
        }
        return hdr
    }

    static func whiteShare(_ image: Raster<UInt8>) -> Double {
        var white = 0
        for y in 48..<96 { for x in 64..<128 where (0..<3).contains(where: { image[x, y, $0] >= 250 }) { white += 1 } }
        return Double(white) / Double(48 * 64)
    }

    @Test func theWindowComesIntoRangeWithItsDetail() {
        let local = ToneMapper().render(Self.room()), global = ToneMapper(tonesLocally: false).render(Self.room())
        #expect(Self.whiteShare(global) > 0.4, "global alone: \(Self.whiteShare(global))")
        #expect(Self.whiteShare(local) < 0.02, "with the local tone map: \(Self.whiteShare(local))")
        // The stripes keep a visible step (≥ 12 codes of green), the room stays a grey well below the window.
        let step = abs(Int(local[96, 70, 1]) - Int(local[100, 70, 1]))
        #expect(step >= 12, "stripe step \(step)")
        #expect(local[20, 20, 1] < local[96, 70, 1] && local[20, 20, 1] > 60, "room \(local[20, 20, 1]), window \(local[96, 70, 1])")
        // Hue is kept: the sky's blue stays its strongest channel.
        #expect(local[96, 70, 2] > local[96, 70, 0] + 10)
    }

    @Test func aWindowClippedInEveryFrameStaysWhite() {
        // Every frame clipped in the window: the merge holds the shortest frame's clip level there, a lower bound.
        var hdr = Self.room()
        for y in 48..<96 { for x in 64..<128 { for c in 0..<3 { hdr[x, y, c] = 20 } } }
        let rendered = ToneMapper().render(hdr, saturation: 19)
        #expect((0..<3).allSatisfy { rendered[96, 70, $0] == 255 } && Self.whiteShare(rendered) == 1)
        // Not told, the tone mapper takes the flat window for radiance and brings it down to a grey.
        let unknowing = ToneMapper().render(hdr)
        #expect(unknowing[96, 70, 1] < 230, "\(unknowing[96, 70, 1])")
    }

    /// Radiance that went through a vignetting correction after clipping: towards the corners the clip level is the
    /// saturation times the correction's gain, so a bright but measured corner is not taken for clipped.
    @Test func theClipLevelRisesWithTheVignettingGain() {
        var hdr = Self.room()
        // Top-left corner: measured at 25, above the centre's clip level (19) but below it × the corner's gain (≈ 2).
        for y in 0..<8 { for x in 0..<8 { for c in 0..<3 { hdr[x, y, c] = 25 } } }
        let shading = LensCorrection(size: Size(width: 192, height: 144), radial: [], vignetting: [1])
        let corrected = ToneMapper().render(hdr, saturation: 19, shading: shading), plain = ToneMapper().render(hdr, saturation: 19)
        #expect(plain[2, 2, 1] == 255 && corrected[2, 2, 1] < 255, "plain \(plain[2, 2, 1]), with shading \(corrected[2, 2, 1])")
        // Nonsense saturations count nothing as clipped.
        #expect(ToneMapper().render(hdr, saturation: 0)[20, 20, 1] < 255)
    }
}
