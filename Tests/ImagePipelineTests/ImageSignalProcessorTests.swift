import CaptureCore
import Testing
@testable import ImagePipeline

@Suite struct ImageSignalProcessorTests {
    @Test func whiteBalanceMakesNeutralPatchNeutral() {
        let raw = Fixtures.raw(from: Fixtures.flat(width: 32, height: 32, SIMD3(repeating: 0.18)))
        #expect(raw.bayer[0, 0] != raw.bayer[1, 0])  // the camera sees the grey as coloured
        let out = ImageSignalProcessor(settings: Fixtures.plainSettings()).processLinear(raw)
        for i in 0..<out.storage.count { #expect(abs(out.storage[i] - 0.18) < 2e-3) }
    }

    @Test func explicitWhiteBalanceGainsAreUsed() {
        let raw = Fixtures.raw(from: Fixtures.flat(width: 16, height: 16, SIMD3(repeating: 0.18)),
                               matrix: .identity)
        var s = Fixtures.plainSettings()
        s.whiteBalance = SIMD3(1, 1, 1)  // no correction: camera colours come through
        let out = ImageSignalProcessor(settings: s).processLinear(raw)
        #expect(abs(out[8, 8, 0] - 0.09) < 2e-3)
        #expect(abs(out[8, 8, 1] - 0.18) < 2e-3)
        #expect(abs(out[8, 8, 2] - 0.126) < 2e-3)
    }

    @Test func colorMatrixMapsCameraRGBToSRGB() {
        // Build the raw directly in camera space: white-balanced camera RGB (0.2, 0.4, 0.3).
        let camera = SIMD3<Double>(0.2, 0.4, 0.3)
        let srgb = Fixtures.cameraToSRGB * camera
        #expect(abs(srgb.x - 0.075) < 1e-9 && abs(srgb.y - 0.47) < 1e-9 && abs(srgb.z - 0.235) < 1e-9)
        let truth = Fixtures.flat(width: 16, height: 16, SIMD3(Float(srgb.x), Float(srgb.y), Float(srgb.z)))
        let raw = Fixtures.raw(from: truth)
        let expectedCode = 512 + 0.2 * 0.5 * (16383 - 512)
        #expect(abs(Double(raw.bayer[0, 0]) - expectedCode) <= 1)
        let out = ImageSignalProcessor(settings: Fixtures.plainSettings()).processLinear(raw)
        #expect(abs(Double(out[8, 8, 0]) - 0.075) < 2e-3)
        #expect(abs(Double(out[8, 8, 1]) - 0.47) < 2e-3)
        #expect(abs(Double(out[8, 8, 2]) - 0.235) < 2e-3)

        var p3 = Fixtures.plainSettings()
        p3.colorSpace = .displayP3
        let outP3 = ImageSignalProcessor(settings: p3).processLinear(raw)
        let expectedP3 = ColorSpace.displayP3.conversion(from: .sRGB) * srgb
        for c in 0..<3 { #expect(abs(Double(outP3[8, 8, c]) - expectedP3[c]) < 2e-3) }
    }

    @Test func clippedHighlightsStayNeutralWhite() {
        // 1.5× white: green and blue clip in the sensor, red does not.
        let truth = Fixtures.flat(width: 16, height: 16, SIMD3(repeating: 1.5))
        let raw = Fixtures.raw(from: truth, matrix: .identity)
        #expect(raw.bayer[1, 0] == 16383 && raw.bayer[1, 1] == 16383 && raw.bayer[0, 0] < 16383)
        for settings in [Fixtures.plainSettings(), ISPSettings()] {
            let out = ImageSignalProcessor(settings: settings).process(raw)
            for i in 0..<out.storage.count { #expect(out.storage[i] == 255) }
        }
        var darker = Fixtures.plainSettings()
        darker.exposureGain = 0.5
        let lin = ImageSignalProcessor(settings: darker).processLinear(raw)
        #expect(abs(lin[8, 8, 0] - lin[8, 8, 1]) < 1e-4 && abs(lin[8, 8, 2] - lin[8, 8, 1]) < 1e-4)
    }

    @Test func exposureGainScalesLinearOutput() {
        let raw = Fixtures.raw(from: Fixtures.flat(width: 16, height: 16, SIMD3(0.1, 0.2, 0.3)))
        var s = Fixtures.plainSettings()
        s.exposureGain = 2
        let out = ImageSignalProcessor(settings: s).processLinear(raw)
        #expect(abs(out[8, 8, 0] - 0.2) < 2e-3 && abs(out[8, 8, 1] - 0.4) < 2e-3 && abs(out[8, 8, 2] - 0.6) < 2e-3)
    }

    @Test(arguments: [CFAPattern.rggb, .bggr, .grbg, .gbrg])
    func processAgreesWithReferenceRendering(cfa: CFAPattern) {
        let truth = Fixtures.colorful(width: 128, height: 96, frequency: 0.12)
        let raw = Fixtures.raw(from: truth, cfa: cfa)
        for sharpening in [0.0, 0.5] {
            var s = ISPSettings()
            s.sharpening = sharpening
            let isp = ImageSignalProcessor(settings: s)
            let cpsnr = ImageQuality.cpsnr(isp.process(raw), isp.renderReference(truth))
            #expect(cpsnr > 35, "CPSNR \(cpsnr) dB, sharpening \(sharpening)")
        }
    }

    @Test func outputSizeDownscales() {
        let raw = Fixtures.raw(from: Fixtures.colorful(width: 64, height: 48))
        var s = ISPSettings()
        s.outputSize = Size(width: 32, height: 24)
        let isp = ImageSignalProcessor(settings: s)
        let small = isp.process(raw)
        #expect(small.size == Size(width: 32, height: 24) && small.channels == 3)
        s.outputSize = nil
        let full = ImageSignalProcessor(settings: s).process(raw)
        #expect(small == Resampler.downscale(full, to: Size(width: 32, height: 24)))
    }
}

@Suite struct ImageSignalProcessorShapeTests {
    @Test(arguments: [(7, 5), (3, 3), (33, 2), (2, 40)], DemosaicMethod.allCases)
    func oddAndTinySizesKeepFlatColor(size: (Int, Int), method: DemosaicMethod) {
        let raw = Fixtures.raw(from: Fixtures.flat(width: size.0, height: size.1, SIMD3(0.3, 0.2, 0.1)))
        var s = ISPSettings()
        s.demosaic = method
        let out = ImageSignalProcessor(settings: s).processLinear(raw)
        #expect(out.width == size.0 && out.height == size.1)
        for p in 0..<(size.0 * size.1) {
            #expect(abs(out.storage[3 * p] - 0.3) < 3e-3 && abs(out.storage[3 * p + 1] - 0.2) < 3e-3
                    && abs(out.storage[3 * p + 2] - 0.1) < 3e-3)
        }
    }

    /// 16-bit output is the 8-bit photo at finer steps: a frame with 4 EV of headroom (a window far above the room)
    /// gets the same local tone mapping and highlight roll-off, so the window is not clipped at 16 bits either.
    @Test func sixteenBitOutputIsThePhotoAtFinerSteps() {
        var raw = Fixtures.raw(from: LocalToneMapTests.scene())
        raw.baselineExposure = 4
        let isp = ImageSignalProcessor(settings: Fixtures.plainSettings())
        let eight = isp.process(raw), sixteen = isp.process16(raw)
        var worst = 0
        for i in eight.storage.indices { worst = max(worst, abs(Int((Double(sixteen.storage[i]) / 257).rounded()) - Int(eight.storage[i]))) }
        #expect(worst <= 1, "largest difference \(worst) codes")
        #expect(sixteen[96, 80, 1] < 60_000, "window at \(sixteen[96, 80, 1])")
    }
}
