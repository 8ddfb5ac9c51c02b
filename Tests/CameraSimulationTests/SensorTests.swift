import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

@Suite struct SensorTests {
    let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 42)

    @Test func sameRequestIsBitIdentical() {
        let e = SensorExposure(size: testSize, duration: 1.0 / 30, iso: 100, seed: 7)
        let a = camera.capture(e), b = camera.capture(e)
        #expect(a.bayer == b.bayer)
        let other = SimulatedCamera(module: .backWide, scene: .default, seed: 42)
        #expect(other.capture(e).bayer == a.bayer)
        var e2 = e
        e2.seed = 8
        #expect(camera.capture(e2).bayer != a.bayer)
        let otherSession = SimulatedCamera(module: .backWide, scene: .default, seed: 43)
        #expect(otherSession.capture(e).bayer != a.bayer)
    }
}

extension SensorTests {
    /// Mean normalised green signal on the mid-grey panel.
    func greyPanel(_ e: SensorExposure, camera c: SimulatedCamera? = nil) -> Double {
        let cam = c ?? camera
        return mean(rawPatch(cam.capture(e), camera: cam, at: SimulatedScene.midGreyPanelCenter, radius: 4))
    }

    @Test func signalDoublesWithDurationAndISO() {
        let base = greyPanel(SensorExposure(size: testSize, duration: 1.0 / 60, iso: 100, seed: 1))
        let longer = greyPanel(SensorExposure(size: testSize, duration: 1.0 / 30, iso: 100, seed: 2))
        let gained = greyPanel(SensorExposure(size: testSize, duration: 1.0 / 60, iso: 200, seed: 3))
        #expect(base > 0.02 && base < 0.2)
        #expect(abs(longer / base - 2) < 0.06)
        #expect(abs(gained / base - 2) < 0.06)
    }

    @Test func noiseFollowsShotPlusReadModel() {
        let size = Size(width: 320, height: 240)
        for (iso, duration) in [(100.0, 1.0 / 15), (1600.0, 1.0 / 240)] {
            let a = camera.capture(SensorExposure(size: size, duration: duration, iso: iso, seed: 11))
            let b = camera.capture(SensorExposure(size: size, duration: duration, iso: iso, seed: 12))
            let pa = rawPatch(a, camera: camera, at: SimulatedScene.midGreyPanelCenter, radius: 13)
            let pb = rawPatch(b, camera: camera, at: SimulatedScene.midGreyPanelCenter, radius: 13)
            let measured = variance(zip(pa, pb).map { $0 - $1 }) / 2
            let signal = (mean(pa) + mean(pb)) / 2
            let profile = a.noiseProfile[1]
            let predicted = profile.scale * signal + profile.offset
            #expect(abs(measured / predicted - 1) < 0.15, "ISO \(iso): measured \(measured), predicted \(predicted)")
        }
    }

    @Test func readNoiseDominatesInTheDarkAtHighISO() {
        // Capped lens, i.e. zero exposure time: black level plus read noise only.
        let raw = camera.capture(SensorExposure(size: testSize, duration: 0, iso: 2400, seed: 5))
        let values = raw.bayer.storage.map(Double.init)
        #expect(abs(mean(values) - 528) < 3)
        let profile = raw.noiseProfile[0]
        let range = Double(raw.whiteLevel - 528)
        let predictedSigma = (profile.offset).squareRoot() * range
        #expect(abs(variance(values).squareRoot() / predictedSigma - 1) < 0.15)
    }

    @Test func windowClipsAtWhiteLevel() {
        // At the exposure the room asks for (auto exposure's highlight headroom given back), the sky clips.
        let m = camera.meter(size: testSize)
        let raw = camera.capture(SensorExposure(size: testSize, duration: m.duration * pow(2, m.highlightHeadroom), iso: m.iso, seed: 4))
        for colour in 0..<3 {
            let window = rawPatch(raw, camera: camera, at: SimulatedScene.windowSkyPoint, radius: 3, colour: colour)
            // At or just below the white level (where the noise of a sample at full well leaves it).
            #expect(window.contains(1) && window.allSatisfy { $0 > 0.98 },
                    "colour \(colour): \(window)")
        }
        #expect(raw.bayer.storage.max() == UInt16(raw.whiteLevel))
        #expect(raw.whiteLevel == 16383 && raw.blackLevel == [528, 528, 528, 528])
    }

    @Test func frameMetadata() {
        let e = SensorExposure(size: testSize, duration: 0.01, iso: 50, flash: true, startTime: 2, bias: -1, seed: 3)
        let raw = camera.capture(e)
        #expect(raw.width == 160 && raw.height == 120 && raw.cfa == .rggb && raw.bitDepth == 14)
        #expect(raw.exposure == ExposureRecord(duration: 0.01, iso: 50, bias: -1, flashFired: true, startTime: 2))
        #expect(raw.asShotNeutral.y == 1 && raw.asShotNeutral.x < 1 && raw.asShotNeutral.z < 1)
        // White-balanced camera RGB → sRGB keeps white white.
        let white = raw.cameraToSRGB * SIMD3<Double>(1, 1, 1)
        #expect(abs(white.x - 1) < 1e-9 && abs(white.y - 1) < 1e-9 && abs(white.z - 1) < 1e-9)
        // The front camera has no flash: it never fires.
        let front = SimulatedCamera(module: .frontTrueDepth, scene: .default, seed: 1)
        #expect(front.capture(e).exposure.flashFired == false)
    }

    @Test func groundTruthMatchesMeanOfNoisyFrames() {
        let e = SensorExposure(size: testSize, duration: 1.0 / 30, iso: 200, seed: 0)
        let truth = camera.groundTruth(e)
        let c = camera.pixelLocation(of: SimulatedScene.midGreyPanelCenter, size: testSize)!
        let expected = rasterMean(truth, at: c, radius: 4, channel: 1)
        var sum = 0.0
        for s in 0..<12 {
            var frame = e
            frame.seed = UInt64(100 + s)
            sum += greyPanel(frame)
        }
        #expect(abs(sum / 12 / expected - 1) < 0.02, "noisy mean \(sum / 12) vs truth \(expected)")
        // Neutral panel is neutral in the ground truth.
        let r = rasterMean(truth, at: c, radius: 4, channel: 0), b = rasterMean(truth, at: c, radius: 4, channel: 2)
        #expect(abs(r / expected - 1) < 0.02 && abs(b / expected - 1) < 0.02)
    }

    @Test func groundTruthColoursFollowTheChart() {
        let e = SensorExposure(size: Size(width: 320, height: 240), duration: 1.0 / 30, iso: 200)
        let truth = camera.groundTruth(e)
        func patch(_ i: Int) -> SIMD3<Double> {
            let c = camera.pixelLocation(of: SimulatedScene.colorChartPatchCenter(i), size: e.size)!
            return SIMD3((0..<3).map { rasterMean(truth, at: c, radius: 1, channel: $0) })
        }
        let grey = patch(21), greyAlbedo = SimulatedScene.colorChartAlbedo(21)
        for i in [14, 13, 16, 11] {   // red, green, yellow, orange-yellow... and blue below
            let expected = SimulatedScene.colorChartAlbedo(i) / greyAlbedo
            let got = patch(i) / grey
            #expect(abs(got.x / expected.x - 1) < 0.12 && abs(got.y / expected.y - 1) < 0.12, "patch \(i): \(got) vs \(expected)")
        }
        let blue = patch(12)
        #expect(blue.z > 2 * blue.x && blue.z > 2 * blue.y)
    }
}

@Suite struct ReadoutSizeTests {
    @Test func oddAndTinyReadoutsWork() {
        let tele = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 9)
        // A shake path wider than the frame, odd widths, a single pixel.
        for size in [Size(width: 17, height: 13), Size(width: 161, height: 121), Size(width: 1, height: 1)] {
            let e = SensorExposure(size: size, duration: 1, iso: 25, flash: true, seed: 1)
            let raw = tele.capture(e)
            #expect(raw.width == size.width && raw.height == size.height)
            #expect(raw.bayer.storage.allSatisfy { $0 <= 16383 })
            // Linear sRGB may go slightly negative on the poster's wide-gamut (Display P3) inks.
            #expect(tele.groundTruth(e).storage.allSatisfy { $0.isFinite && $0 > -0.5 })
        }
    }

    @Test func binningKeepsSignalPerAreaAndLowersRelativeNoise() {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 2)
        let small = Size(width: 160, height: 120), large = Size(width: 320, height: 240)
        let e1 = SensorExposure(size: small, duration: 1.0 / 30, iso: 100), e2 = SensorExposure(size: large, duration: 1.0 / 30, iso: 100)
        // Normalised signal is the same (full well and photons both scale with pixel area)…
        let s1 = rasterMean(camera.groundTruth(e1), at: camera.pixelLocation(of: SimulatedScene.midGreyPanelCenter, size: small)!, radius: 3, channel: 1)
        let s2 = rasterMean(camera.groundTruth(e2), at: camera.pixelLocation(of: SimulatedScene.midGreyPanelCenter, size: large)!, radius: 6, channel: 1)
        #expect(abs(s1 / s2 - 1) < 0.01)
        // …while the shot-noise scale (variance per unit signal) drops with the pixel area.
        let p1 = camera.capture(e1).noiseProfile[1].scale, p2 = camera.capture(e2).noiseProfile[1].scale
        #expect(abs(p2 / p1 - 4) < 1e-9)
    }
}

@Suite struct CroppedReadoutTests {
    /// A video crop exposes only the middle rows: the same scene, shake and exposure as the full frame cropped
    /// (the noise differs: the rows' random streams start at the crop).
    @Test func centerRowsMatchTheCroppedFullFrame() {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 9)
        let exposure = SensorExposure(size: Size(width: 128, height: 96), duration: 0.02, iso: 100, startTime: 3, seed: 4)
        let whole = camera.capture(exposure)
        let full = (bayer: Raster(width: 128, height: 72, channels: 1, storage: Array(whole.bayer.storage[(12 * 128)..<(84 * 128)])), exposure: whole.exposure)
        let cropped = camera.capture(exposure, centerRows: 72)
        #expect(cropped.width == 128 && cropped.height == 72)
        #expect(cropped.exposure == full.exposure)
        // 8×8 block means agree to within shot noise.
        var worst = 0.0
        for by in stride(from: 0, to: 72, by: 8) {
            for bx in stride(from: 0, to: 128, by: 8) {
                var a = 0.0, b = 0.0
                for y in by..<(by + 8) { for x in bx..<(bx + 8) {
                    a += Double(full.bayer.storage[y * 128 + x]); b += Double(cropped.bayer.storage[y * 128 + x])
                } }
                worst = max(worst, abs(a - b) / max(a, 64 * 600))
            }
        }
        #expect(worst < 0.06, "worst block difference \(worst)")
        #expect(cropped.bayer.storage != full.bayer.storage, "fresh noise")
    }
}

@Suite struct ConcurrencyTests {
    final class Results: @unchecked Sendable {
        var frames = [[UInt16]](repeating: [], count: 4)
    }

    @Test func concurrentCapturesMatchSequentialOnes() {
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 77)
        let sizes = [Size(width: 64, height: 48), Size(width: 96, height: 72)]
        let results = Results()
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let raw = camera.capture(SensorExposure(size: sizes[i % 2], duration: 0.02, iso: 200, seed: UInt64(i)))
            lock.withLock { results.frames[i] = raw.bayer.storage }
        }
        let fresh = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 77)
        for i in 0..<4 {
            #expect(results.frames[i] == fresh.capture(SensorExposure(size: sizes[i % 2], duration: 0.02, iso: 200, seed: UInt64(i))).bayer.storage)
        }
    }
}
