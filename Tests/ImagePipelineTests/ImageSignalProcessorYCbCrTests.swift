import CaptureCore
import Testing
@testable import ImagePipeline

@Suite struct ImageSignalProcessorYCbCrTests {
    /// The video path (straight to Y′CbCr two rows at a time) gives the same bytes as the photo path followed by
    /// the 4:2:0 conversion, for even and odd sizes, both ranges and both matrices, and names its matrix.
    @Test(arguments: [(64, 48), (67, 41), (130, 97)], [false, true])
    func straightToYCbCrMatchesRGBThenConversion(size: (Int, Int), fullRange: Bool) throws {
        for matrix in [YCbCrMatrix.bt601, .bt709] {
            let raw = Fixtures.raw(from: Fixtures.colorful(width: size.0, height: size.1))
            var settings = ISPSettings()
            settings.demosaic = .malvarHeCutler
            settings.noiseReduction = 0
            settings.sharpening = 0
            let isp = ImageSignalProcessor(settings: settings)
            let direct = try #require(isp.processYCbCr420(raw, fullRange: fullRange, matrix: matrix))
            let reference = try #require(PixelBuffer.yCbCr420(from: isp.process(raw), fullRange: fullRange, matrix: matrix))
            #expect(direct.pixelFormat == reference.pixelFormat)
            #expect(direct.attachments["CVImageBufferYCbCrMatrix"] == (matrix == .bt709 ? "ITU_R_709_2" : "ITU_R_601_4"))
            for plane in 0..<2 {
                let a = direct.baseAddress(ofPlane: plane)!.assumingMemoryBound(to: UInt8.self)
                let b = reference.baseAddress(ofPlane: plane)!.assumingMemoryBound(to: UInt8.self)
                let p = direct.planes[plane]
                var differing = 0
                for y in 0..<p.height { for x in 0..<(p.width * p.bytesPerPixel) where a[y * p.bytesPerRow + x] != b[y * p.bytesPerRow + x] { differing += 1 } }
                #expect(differing == 0, "\(matrix) plane \(plane): \(differing) bytes differ")
            }
        }
    }

    /// A positive baseline exposure brightens by 2^EV and rolls the highlights off so the sensor's full scale still
    /// reaches white without a hard clip: a grey 1 EV brighter, a near-white patch below white but above the grey.
    @Test func baselineExposureBrightensWithAHighlightRollOff() throws {
        var settings = Fixtures.plainSettings()
        settings.toneCurve = .linear
        let isp = ImageSignalProcessor(settings: settings)
        func develop(_ level: Float, ev: Double) -> Double {
            var raw = Fixtures.raw(from: Fixtures.flat(width: 32, height: 32, SIMD3(repeating: level)))
            raw.baselineExposure = ev
            let out = isp.process(raw)
            return Double(out[16, 16, 1])
        }
        let grey = develop(0.1, ev: 0), brighter = develop(0.1, ev: 1)
        // sRGB codes of linear 0.1 and 0.2.
        #expect(abs(grey - 89) <= 2 && abs(brighter - 124) <= 2, "\(grey) → \(brighter)")
        let nearWhite = develop(0.9, ev: 1), white = develop(1.0, ev: 1)
        #expect(nearWhite > brighter && nearWhite < 255 && white >= 254, "\(nearWhite), \(white)")
        #expect(ToneCurve.rollOff(0.3, headroom: 1) == 0.3 && abs(ToneCurve.rollOff(2, headroom: 1) - 1) < 1e-6)
    }
}
