import Foundation
import Testing
@testable import OpenCapture

/// Settings resolved from the simulated scene, and the physics behind them.
@Suite struct SceneResolutionTests {
    @Test func autoFlashFiresOnlyInTheDark() async throws {
        let dark = CaptureRig(lighting: .dark)
        let darkSettings = AVCapturePhotoSettings()
        darkSettings.flashMode = .auto
        let darkResult = try await dark.capture(darkSettings)
        #expect(darkResult.resolvedSettings.isFlashEnabled)
        #expect(darkResult.resolvedSettings.isRedEyeReductionEnabled)
        let darkExif = darkResult.photos[0].metadata["{Exif}"] as? [String: Any]
        #expect(darkExif?["Flash"] as? Int == 0x59)  // auto, fired, red-eye reduction

        let bright = CaptureRig(lighting: .daylight)
        let brightSettings = AVCapturePhotoSettings()
        brightSettings.flashMode = .auto
        let brightResult = try await bright.capture(brightSettings)
        #expect(!brightResult.resolvedSettings.isFlashEnabled)
        #expect((brightResult.photos[0].metadata["{Exif}"] as? [String: Any])?["Flash"] as? Int == 0x18)

        // Scene monitoring reports the same decision.
        dark.output.photoSettingsForSceneMonitoring = AVCapturePhotoSettings()
        #expect(!dark.output.isFlashScene, "flash .off in the monitoring settings never reports a flash scene")
        let monitoring = AVCapturePhotoSettings()
        monitoring.flashMode = .auto
        dark.output.photoSettingsForSceneMonitoring = monitoring
        bright.output.photoSettingsForSceneMonitoring = monitoring
        #expect(dark.output.isFlashScene)
        #expect(!bright.output.isFlashScene)
    }

    @Test func flashLightsNearObjectsMoreThanFarOnes() async throws {
        let rig = CaptureRig(preset: .vga640x480, lighting: .dark)
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .on
        let photo = try #require(try await rig.capture(settings).photos.first)
        let truth = try #require(photo.simulationGroundTruth())
        // Compare the truth's brightness per unit albedo at the nearest and farthest depths:
        // under a point flash the near tenth of the pixels must be far brighter than the far tenth.
        let n = truth.width * truth.height
        let order = (0..<n).sorted { truth.depth[$0] < truth.depth[$1] }
        func meanLuma(_ indices: ArraySlice<Int>) -> Double {
            indices.reduce(0.0) { $0 + Double(truth.linearSRGB[3 * $1 + 1]) } / Double(indices.count)
        }
        let near = meanLuma(order[0..<(n / 10)]), far = meanLuma(order[(n - n / 10)..<n])
        #expect(near > 4 * far, "near \(near) vs far \(far)")
    }

    @Test func stabilizationFusesFramesAndLowersNoiseInLowLight() async throws {
        // Noise in flat parts of the scene, measured against the noise-free ground truth through the same
        // tone curve: fusing several exposures must lower it clearly.
        func noise(stabilized: Bool) async throws -> (Double, Bool) {
            let rig = CaptureRig(preset: .medium, lighting: .dim, seed: 99)
            let settings = bgraSettings()
            settings.isAutoStillImageStabilizationEnabled = stabilized
            let result = try await rig.capture(settings)
            let measured = try #require(flatRegionNoise(result.photos[0]))
            #expect(measured.pixels > 500)
            return (measured.rms, result.resolvedSettings.isStillImageStabilizationEnabled)
        }
        let (single, singleResolved) = try await noise(stabilized: false)
        let (fused, fusedResolved) = try await noise(stabilized: true)
        #expect(!singleResolved)
        #expect(fusedResolved)
        #expect(fused < single * 0.85, "fused noise \(fused) vs single \(single) (8-bit RMS)")
    }

    @Test func stabilizationStaysOffInBrightLight() async throws {
        let rig = CaptureRig(lighting: .daylight)
        let result = try await rig.capture()
        #expect(!result.resolvedSettings.isStillImageStabilizationEnabled)
        rig.output.photoSettingsForSceneMonitoring = AVCapturePhotoSettings()
        #expect(!rig.output.isStillImageStabilizationScene)
        let dim = CaptureRig(lighting: .dim)
        dim.output.photoSettingsForSceneMonitoring = AVCapturePhotoSettings()
        #expect(dim.output.isStillImageStabilizationScene)
    }

    @Test func exposureBiasCollectsMoreLight() async throws {
        var means: [Double] = []
        for bias: Float in [-1, 0, 1] {
            let rig = CaptureRig()
            try rig.device.lockForConfiguration()
            rig.device.setExposureTargetBias(bias)
            rig.device.unlockForConfiguration()
            let photo = try #require(try await rig.capture(bgraSettings()).photos.first)
            means.append(meanGreen(try #require(photo.pixelBuffer)))
            let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
            #expect(exif["ExposureBiasValue"] as? Double == Double(bias))
        }
        #expect(means[0] < means[1] && means[1] < means[2], "\(means)")
    }

    @Test func customExposureIsUsedExactly() async throws {
        let rig = CaptureRig()
        try rig.device.lockForConfiguration()
        rig.device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 250), iso: 400)
        rig.device.unlockForConfiguration()
        #expect(rig.device.exposureMode == .custom)
        #expect(abs(rig.device.exposureDuration.seconds - 0.004) < 1e-9)
        let photo = try #require(try await rig.capture().photos.first)
        let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
        #expect(abs((exif["ExposureTime"] as? Double ?? 0) - 0.004) < 1e-9)
        #expect((exif["ISOSpeedRatings"] as? [Int]) == [400])
    }

    @Test func sameSeedAndRequestsGiveTheSamePixels() async throws {
        func pixels(seed: UInt64) async throws -> [[UInt8]] {
            let rig = CaptureRig(seed: seed)
            var result: [[UInt8]] = []
            for _ in 0..<2 {
                result.append(bgraBytes(try #require(try await rig.capture(bgraSettings()).photos[0].pixelBuffer)))
            }
            return result
        }
        let a = try await pixels(seed: 5), b = try await pixels(seed: 5), c = try await pixels(seed: 6)
        #expect(a == b)
        #expect(a[0] != a[1], "successive requests get fresh noise")
        #expect(a[0] != c[0], "another seed gives other noise")
    }

    @Test func photoMatchesTheSimulatorGroundTruth() async throws {
        let rig = CaptureRig(preset: .vga640x480, lighting: .daylight)
        let photo = try #require(try await rig.capture(bgraSettings()).photos.first)
        let truth = try #require(photo.simulationGroundTruth())
        #expect(truth.width == 640 && truth.height == 480)
        #expect(truth.depth.allSatisfy { $0 > 0.1 && $0.isFinite })
        let psnr = try #require(cpsnrAgainstGroundTruth(photo))
        #expect(psnr > 28, "CPSNR against ground truth \(psnr) dB")
    }
}
