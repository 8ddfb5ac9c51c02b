import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

@Suite struct ExposureTests {
    @Test(arguments: [SceneLighting.daylight, .indoor])
    func autoExposurePutsMidGreyNearFifteenPercent(_ lighting: SceneLighting) {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: lighting), seed: 1)
        let m = camera.meter(size: testSize)
        let raw = camera.capture(SensorExposure(size: testSize, duration: m.duration, iso: m.iso, seed: 2))
        // The window keeps auto exposure 3–4 EV below the room's level (its highlight headroom, given back by the ISP).
        #expect(m.highlightHeadroom > 3 && m.highlightHeadroom <= SimulatedCamera.maximumHighlightHeadroom, "\(m.highlightHeadroom) EV")
        let grey = mean(rawPatch(raw, camera: camera, at: SimulatedScene.midGreyPanelCenter, radius: 4)) * pow(2, m.highlightHeadroom)
        #expect(grey > 0.12 && grey < 0.20, "\(lighting): grey at \(grey)")
        #expect(!m.flashRecommended && !m.isLowLight)
        #expect(camera.module.isoRange.contains(m.iso) && camera.module.exposureDurationRange.contains(m.duration))
    }

    @Test func biasScalesCollectedLight() {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 1)
        let zero = camera.meter(size: testSize), plus = camera.meter(size: testSize, bias: 1)
        let minus = camera.meter(size: testSize, bias: -2)
        #expect(abs(plus.duration * plus.iso / (zero.duration * zero.iso) - 2) < 1e-6)
        #expect(abs(minus.duration * minus.iso / (zero.duration * zero.iso) - 0.25) < 1e-6)
        #expect(zero.duration <= camera.module.handheldDurationLimit + 1e-12)
    }

    @Test func lowLightAndFlashDecisions() {
        let dark = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .dark), seed: 1).meter(size: testSize)
        #expect(dark.flashRecommended && dark.isLowLight)
        #expect(dark.exposureValue100 < 1)
        let dim = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .dim), seed: 1).meter(size: testSize)
        #expect(!dim.flashRecommended && dim.isLowLight)
        // Short of light, auto exposure keeps no highlight headroom: the room's noise would cost more.
        #expect(dark.highlightHeadroom == 0 && dim.highlightHeadroom == 0)
        let day = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .daylight), seed: 1).meter(size: testSize)
        #expect(day.exposureValue100 > dark.exposureValue100 + 8)
        // The front camera has no flash to recommend.
        let front = SimulatedCamera(module: .frontTrueDepth, scene: .livingRoom(lighting: .dark), seed: 1).meter(size: testSize)
        #expect(!front.flashRecommended)
    }

    /// Bv is the scene's brightness as metered, whatever the exposure made of it: at zero bias, without headroom and within
    /// range, Av + Tv − Sv sits log2(0.42 · 78 / (12.5 · π·T/4)) = 1.89 EV below it (the 42 % target over the meter
    /// equation, for the saturation-based ISO), and it moves with the bias and the highlight headroom while Bv does not.
    @Test(arguments: [SceneLighting.daylight, .indoor, .dim])
    func brightnessValueIsTheScenesNotTheExposures(_ lighting: SceneLighting) {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: lighting), seed: 1)
        let calibration = log2(SimulatedCamera.autoExposureTarget * 78
                               / (ExposureMetering.meterConstant * Double.pi * camera.module.lensTransmission / 4))
        #expect(abs(calibration - 1.89) < 0.005, "\(calibration)")
        let zero = camera.meter(size: testSize)
        #expect(abs(zero.brightnessValue - (zero.exposureValue100 - 5)) < 1e-9)
        for bias in [-1.0, 0, 1] {
            let m = camera.meter(size: testSize, bias: bias)
            let n = camera.module.fNumber
            let exposure = log2(n * n / m.duration) - log2(m.iso / 3.125)   // Av + Tv − Sv
            #expect(abs(m.brightnessValue - (exposure + calibration + bias - m.highlightHeadroom)) < 0.01,
                    "\(lighting) bias \(bias): Bv \(m.brightnessValue), Av + Tv − Sv \(exposure), headroom \(m.highlightHeadroom)")
            #expect(m.brightnessValue == zero.brightnessValue)
        }
    }

    /// The flash is the camera's light, not the scene's: pre-flash metering exposes for the lit subject, and the dark room
    /// still reads as the darkest of the four lightings (the pre-flash reading made it brighter than the dim room).
    @Test func flashChangesTheExposureNotTheBrightnessValue() {
        func meter(_ lighting: SceneLighting, flash: Bool = false) -> ExposureMetering {
            SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: lighting), seed: 1).meter(size: testSize, flash: flash)
        }
        let dark = meter(.dark), lit = meter(.dark, flash: true), dim = meter(.dim)
        #expect(lit.exposureValue100 > dark.exposureValue100 + 3, "the lit subject sets the exposure")
        #expect(lit.brightnessValue == dark.brightnessValue)
        #expect(dark.brightnessValue < dim.brightnessValue - 2 && dark.brightnessValue < -4,
                "dark \(dark.brightnessValue), lit \(lit.brightnessValue), dim \(dim.brightnessValue)")
    }

    @Test func flashLightsNearObjectsFarMoreThanTheWall() {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .dark), seed: 1)
        let ambient = camera.groundTruth(SensorExposure(size: testSize, duration: 1.0 / 30, iso: 400))
        let lit = camera.groundTruth(SensorExposure(size: testSize, duration: 1.0 / 30, iso: 400, flash: true))
        func gain(_ p: SIMD3<Double>) -> Double {
            let c = camera.pixelLocation(of: p, size: testSize)!
            return rasterMean(lit, at: c, radius: 1, channel: 1) / rasterMean(ambient, at: c, radius: 1, channel: 1)
        }
        let near = gain(SimulatedScene.nearObjectCenter), wall = gain(SimulatedScene.backWallPoint)
        #expect(near > 20 * wall, "near ×\(near), wall ×\(wall)")
        #expect(wall > 2)
        // A 1.5 m subject is well exposed by the flash at 1/30 s, ISO 400 in a dark room.
        let raw = camera.capture(SensorExposure(size: testSize, duration: 1.0 / 30, iso: 400, flash: true, seed: 3))
        let grey = mean(rawPatch(raw, camera: camera, at: SimulatedScene.midGreyPanelCenter, radius: 4))
        #expect(grey > 0.08 && grey < 0.3, "flash-lit grey at \(grey)")
        // Pre-flash metering asks for far less ISO than ambient metering, and exposes the lit board, not the dark room.
        let preflash = camera.meter(size: testSize, flash: true)
        #expect(preflash.iso < camera.meter(size: testSize).iso / 2)
        #expect(preflash.highlightHeadroom == 0, "the flash-lit subject's metering keeps no headroom")
        let metered = camera.capture(SensorExposure(size: testSize, duration: preflash.duration, iso: preflash.iso, flash: true, seed: 4))
        let board = mean(rawPatch(metered, camera: camera, at: SimulatedScene.midGreyPanelCenter, radius: 4))
        #expect(board > 0.04 && board < 0.25, "pre-flash metered grey at \(board)")

    }
}

@Suite struct HandShakeTests {
    let size = Size(width: 160, height: 120)

    /// RMS radius (pixels) of the motion kernel around its centroid.
    func kernelSpread(_ camera: SimulatedCamera, _ e: SensorExposure) -> Double {
        let taps = camera.shakeTaps(e, geometry: ViewGeometry(module: camera.module, size: e.size))
        var mx = 0.0, my = 0.0
        for t in taps { mx += Double(t.weight) * Double(t.dx); my += Double(t.weight) * Double(t.dy) }
        var v = 0.0
        for t in taps { v += Double(t.weight) * ((Double(t.dx) - mx) * (Double(t.dx) - mx) + (Double(t.dy) - my) * (Double(t.dy) - my)) }
        return v.squareRoot()
    }

    @Test func blurGrowsWithDurationAndOISCutsIt() {
        let wide = SimulatedCamera(module: .backWide, scene: .default, seed: 3)
        let native = SimulatedCamera.nativeTestSize
        let short = kernelSpread(wide, SensorExposure(size: native, duration: 1.0 / 1000, iso: 25))
        let quarter = kernelSpread(wide, SensorExposure(size: native, duration: 0.25, iso: 25))
        let second = kernelSpread(wide, SensorExposure(size: native, duration: 1, iso: 25))
        let stabilised = kernelSpread(wide, SensorExposure(size: native, duration: 1, iso: 25, opticalStabilization: true))
        #expect(short < 0.75, "1/1000 s spread \(short) px")      // sharp: at most the sub-pixel interpolation
        #expect(quarter > 1, "1/4 s spread \(quarter) px")
        #expect(second > quarter)
        #expect(stabilised < 0.35 * second, "OIS \(stabilised) px vs \(second) px")
        // The telephoto has no OIS: the request is ignored.
        let tele = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 3)
        #expect(kernelSpread(tele, SensorExposure(size: native, duration: 1, iso: 25, opticalStabilization: true))
            == kernelSpread(tele, SensorExposure(size: native, duration: 1, iso: 25)))
    }

    @Test func longExposureLosesDetail() {
        let tele = SimulatedCamera(module: .backTelephoto, scene: .default, seed: 3)
        let size = Size(width: 320, height: 240)
        let sharp = gradientEnergy(tele.groundTruth(SensorExposure(size: size, duration: 1.0 / 1000, iso: 25)))
        let blurred = gradientEnergy(tele.groundTruth(SensorExposure(size: size, duration: 1.0, iso: 25)))
        #expect(blurred < 0.85 * sharp, "1/1000 s: \(sharp), 1 s: \(blurred)")
    }

    @Test func startTimeMovesTheFrame() {
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 5)
        let a = camera.shakeOffset(at: 0, size: SimulatedCamera.nativeTestSize)
        let b = camera.shakeOffset(at: 0.7, size: SimulatedCamera.nativeTestSize)
        #expect(((a - b) * (a - b)).sum().squareRoot() > 1)   // pixels at full resolution
        let f0 = camera.groundTruth(SensorExposure(size: size, duration: 1.0 / 500, iso: 25, startTime: 0))
        let f1 = camera.groundTruth(SensorExposure(size: size, duration: 1.0 / 500, iso: 25, startTime: 0.7))
        #expect(f0 != f1)
        // OIS shrinks the excursion 5×.
        let o = camera.shakeOffset(at: 0.7, size: SimulatedCamera.nativeTestSize, opticalStabilization: true)
        #expect(abs(o.x * 5 - b.x) < 1e-9 && abs(o.y * 5 - b.y) < 1e-9)
    }
}

extension SimulatedCamera {
    static let nativeTestSize = Size(width: 4032, height: 3024)
}
