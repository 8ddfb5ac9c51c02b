import CaptureCore
import Foundation
import Testing
@testable import ImagePipeline

/// `LocalToneMap`: a bright region of a frame with headroom comes down with its own detail, and nothing else moves.
@Suite struct LocalToneMapTests {
    /// A 192 × 144 grey room (linear 0.01 of the sensor's range) with a "window" 6 EV brighter (0.7 of the range,
    /// with ±0.25 EV stripes of detail) in its middle third, and a clipped patch at the window's top.
    static func scene() -> Raster<Float> {
        var truth = Fixtures.flat(width: 192, height: 144, SIMD3(repeating: 0.01))
        for y in 48..<96 {
            for x in 64..<128 {
                let detail: Float = (x / 4) % 2 == 0 ? 1.19 : 0.84
                let level: Float = y < 56 ? 1.5 : 0.7 * detail
                for c in 0..<3 { truth[x, y, c] = level }
            }
        }
        return truth
    }

    @Test func theWindowComesDownWithItsDetailAndTheRoomStays() throws {
        var raw = Fixtures.raw(from: Self.scene())
        raw.baselineExposure = 4
        let isp = ImageSignalProcessor(settings: Fixtures.plainSettings())
        let gains = isp.whiteBalanceGains(for: raw)
        let map = try #require(LocalToneMap(raw: raw, gains: gains, exposureGain: 16, lens: nil, shading: false))
        let width = 192
        // Output-space rows at the scene's levels after the 4 EV brightening.
        func gain(atX x: Int, y: Int) -> Float {
            let level = Self.scene()[x, y, 1] * 16
            var r = [Float](repeating: level, count: width), g = r, b = r
            map.apply(r: &r, g: &g, b: &b, row: y, width: width)
            return g[x] / level
        }
        // The window (base 11.2 after the brightening, 2^3.5) comes down near the ceiling (2^−0.6 ≈ 0.66)…
        let window = 11.2 * gain(atX: 96, y: 80)
        #expect(window > 0.5 && window < 0.9, "window at \(window)")
        // …its stripes keep their contrast: neighbours one stripe apart keep ≥ 80 % of their 0.5 EV step.
        let step = log2(Self.scene()[96, 80, 1] * 16 * gain(atX: 96, y: 80)) - log2(Self.scene()[100, 80, 1] * 16 * gain(atX: 100, y: 80))
        #expect(abs(step) > 0.4, "stripe step \(step) EV")
        // The room is left alone, right beside the window too (no dark halo).
        for x in [10, 60, 63] { #expect(abs(gain(atX: x, y: 80) - 1) < 0.01, "room at x = \(x): \(gain(atX: x, y: 80))") }
        // What the raw clipped stays where the roll-off takes it to white.
        #expect(gain(atX: 96, y: 50) > 0.9, "clipped gain \(gain(atX: 96, y: 50))")
    }

    /// Interleaved rows (stride 3, as `ToneMapper` passes them) get exactly the planar rows' gains.
    @Test func interleavedRowsGetThePlanarGains() throws {
        var raw = Fixtures.raw(from: Self.scene())
        raw.baselineExposure = 4
        let map = try #require(LocalToneMap(raw: raw, gains: SIMD3(repeating: 1), exposureGain: 16, lens: nil, shading: false))
        let width = 192, y = 80
        var r = (0..<width).map { Self.scene()[$0, y, 0] * 16 }, g = r, b = r
        var rgb = (0..<(3 * width)).map { r[$0 / 3] }
        map.apply(r: &r, g: &g, b: &b, row: y, width: width)
        rgb.withUnsafeMutableBufferPointer { p in
            map.apply(r: p.baseAddress!, g: p.baseAddress! + 1, b: p.baseAddress! + 2, stride: 3, row: y, width: width)
        }
        let same = (0..<width).allSatisfy { (x: Int) -> Bool in
            rgb[3 * x] == r[x] && rgb[3 * x + 1] == g[x] && rgb[3 * x + 2] == b[x]
        }
        #expect(same)
        #expect(r[96] < Self.scene()[96, y, 0] * 16 * 0.5, "the window comes down: \(r[96])")
    }

    @Test func framesWithoutHeadroomOrHighlightsGetNoMap() {
        var raw = Fixtures.raw(from: Self.scene())
        let gains = SIMD3<Double>(repeating: 1)
        #expect(LocalToneMap(raw: raw, gains: gains, exposureGain: 1, lens: nil, shading: false) == nil)
        // Under 1 EV of headroom (a converter's small BaselineExposure): the roll-off alone, no map.
        raw.baselineExposure = 0.5
        #expect(LocalToneMap(raw: raw, gains: gains, exposureGain: 1.41, lens: nil, shading: false) == nil)
        raw = Fixtures.raw(from: Fixtures.flat(width: 64, height: 48, SIMD3(repeating: 0.02)))
        raw.baselineExposure = 2
        #expect(LocalToneMap(raw: raw, gains: gains, exposureGain: 4, lens: nil, shading: false) == nil)
    }

    /// The ISP's photo and the reference rendering of the same truth agree with the local tone map on (both make it,
    /// one from the raw, one from the truth), where they would differ by several EV in the window without it.
    @Test func referenceRenderingAppliesTheSameMap() {
        let truth = Self.scene()
        var raw = Fixtures.raw(from: truth)
        raw.baselineExposure = 4
        let isp = ImageSignalProcessor(settings: Fixtures.plainSettings())
        let photo = isp.process(raw), reference = isp.renderReference(truth, baselineExposure: 4)
        #expect(abs(Int(photo[96, 80, 1]) - Int(reference[96, 80, 1])) <= 6, "\(photo[96, 80, 1]) vs \(reference[96, 80, 1])")
        #expect(photo[96, 80, 1] < 230, "the window is not at white: \(photo[96, 80, 1])")
        #expect(ImageQuality.cpsnr(photo, reference, border: 4) > 30)
    }
}
