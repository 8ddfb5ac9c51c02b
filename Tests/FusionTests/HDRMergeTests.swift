import CaptureCore
import Foundation
import Testing
@testable import Fusion

@Suite struct HDRMergeTests {
    static let exposures = [0.05, 0.4, 3.2]

    /// Radiance spread log-uniformly over [0.01, 15] (3 decades), per channel.
    static func scene() -> Raster<Float> {
        var random = RandomSource(seed: 42)
        let w = 64, h = 48
        return Raster(width: w, height: h, channels: 3,
                      storage: (0..<(w * h * 3)).map { _ in Float(0.01 * pow(1500, random.nextUniformDouble())) })
    }

    @Test func recoversLinearRadianceFrom8BitBracket() throws {
        let truth = Self.scene()
        let frames = Self.exposures.map { TestScenes.capture(truth, exposure: $0) }
        let merged = try HDRMerge().merge(frames, exposures: Self.exposures)
        #expect(merged.width == truth.width && merged.channels == 3)
        var worst: Float = 0
        for i in truth.storage.indices where frames[0].storage[i] < 250 {  // the shortest exposure is unclipped
            worst = max(worst, abs(merged.storage[i] / truth.storage[i] - 1))
        }
        #expect(worst < 0.03)
    }

    @Test func recoversLinearRadianceFromFloatBracket() throws {
        let truth = Self.scene()
        let frames = Self.exposures.map { e in
            Raster(width: truth.width, height: truth.height, channels: 3, storage: truth.storage.map { min(Float(e) * $0, 1) })
        }
        let merged = try HDRMerge().merge(linear: frames, exposures: Self.exposures)
        for i in truth.storage.indices {
            #expect(abs(merged.storage[i] / truth.storage[i] - 1) < 1e-4)
        }
    }

    @Test func fullyClippedPixelsFallBackToTheShortestExposure() throws {
        let white = Raster<UInt8>(width: 2, height: 2, channels: 3, repeating: 255)
        let merged = try HDRMerge().merge([white, white], exposures: [1, 4])
        #expect(merged.storage.allSatisfy { $0 == 1 })
    }

    /// `clipLevel` separates what the merge measured from what it only saw clipped: a pixel clipped in every frame
    /// merges at or above it, one the shortest frame measured at 240 (linear 0.87) below it.
    @Test func clipLevelSeparatesMeasuredFromClipped() throws {
        let white = Raster<UInt8>(width: 2, height: 2, channels: 3, repeating: 255)
        let bright = Raster<UInt8>(width: 2, height: 2, channels: 3, repeating: 240)
        let exposures = [1.0, 4]
        let level = try #require(HDRMerge.clipLevel(exposures: exposures))
        #expect(try HDRMerge().merge([white, white], exposures: exposures).storage.allSatisfy { $0 >= level })
        #expect(try HDRMerge().merge([bright, white], exposures: exposures).storage.allSatisfy { $0 < level })
        let linear = try HDRMerge().merge(linear: [Raster<Float>(width: 2, height: 2, channels: 3, repeating: 2),
                                                   Raster<Float>(width: 2, height: 2, channels: 3, repeating: 2)],
                                          exposures: exposures, saturation: 2)
        #expect(linear.storage.allSatisfy { $0 >= HDRMerge.clipLevel(exposures: exposures, saturation: 2)! })
    }

    /// One weight per pixel and frame: where the long frame clipped one channel, the pixel comes from the short frame
    /// in every channel, so an error in the long frame's level (10 % here) cannot change the pixel's colour.
    @Test func aPixelsChannelsMixTheFramesAlike() throws {
        let short = Raster<Float>(width: 2, height: 2, channels: 3, storage: Array(repeating: [0.2, 0.2, 0.24], count: 4).flatMap { $0 })
        let long = Raster<Float>(width: 2, height: 2, channels: 3, storage: Array(repeating: [0.88, 0.88, 1.0], count: 4).flatMap { $0 })
        let merged = try HDRMerge().merge(linear: [short, long], exposures: [1, 4])
        #expect(abs(merged.storage[2] / merged.storage[1] - 1.2) < 0.01, "blue / green \(merged.storage[2] / merged.storage[1])")
    }

    @Test func badInputThrows() {
        let a = Raster<UInt8>(width: 8, height: 8, channels: 3), b = Raster<UInt8>(width: 8, height: 9, channels: 3)
        #expect(throws: FusionError.noImages) { try HDRMerge().merge([], exposures: []) }
        #expect(throws: FusionError.sizeMismatch) { try HDRMerge().merge([a, b], exposures: [1, 2]) }
        #expect(throws: FusionError.exposureCountMismatch) { try HDRMerge().merge([a, a], exposures: [1]) }
        #expect(throws: FusionError.invalidExposure(0)) { try HDRMerge().merge([a, a], exposures: [1, 0]) }
        let f = Raster<Float>(width: 8, height: 8, channels: 3)
        #expect(throws: FusionError.self) { try HDRMerge().merge(linear: [f], exposures: [1], saturation: 0) }
    }
}
