import Testing
@testable import CaptureCore

@Suite struct RasterTests {
    @Test func interleavedRowMajorLayout() {
        var r = Raster<UInt16>(width: 3, height: 2, channels: 2)
        #expect(r.storage.count == 12 && r.storage.allSatisfy { $0 == 0 })
        #expect(r.rowStride == 6 && r.size == Size(width: 3, height: 2))
        r[2, 1, 1] = 9
        r[1, 0] = 5
        #expect(r.storage[(1 * 3 + 2) * 2 + 1] == 9)
        #expect(r.storage[2] == 5 && r[1, 0, 0] == 5)
        let filled = Raster<Float>(width: 2, height: 2, channels: 3, repeating: 0.5)
        #expect(filled.storage == [Float](repeating: 0.5, count: 12))
        let copy = r
        r[0, 0] = 1
        #expect(copy != r && copy[0, 0] == 0)   // value semantics
        #expect(Raster<UInt8>(width: 0, height: 5).storage.isEmpty)
    }

    @Test func rawImageReportsItsBayerSize() {
        let raw = RawImage(bayer: Raster(width: 6, height: 4), cfa: .grbg, bitDepth: 12, blackLevel: [64, 64, 64, 64],
                           whiteLevel: 4095, asShotNeutral: SIMD3(0.5, 1, 0.6), cameraToSRGB: .identity,
                           noiseProfile: [(1e-4, 1e-6)], exposure: ExposureRecord(duration: 1.0 / 60, iso: 100))
        #expect(raw.width == 6 && raw.height == 4)
        #expect(raw.exposure.frameCount == 1 && raw.exposure.bias == 0 && !raw.exposure.flashFired)
    }

    @Test func cfaPatternsShiftAndMapToFormats() {
        for pattern in CFAPattern.allCases {
            #expect(pattern.shifted(x: 0, y: 0) == pattern)
            #expect(pattern.shifted(x: 2, y: 4) == pattern)
            #expect(pattern.shifted(x: 1, y: 1).shifted(x: 1, y: 1) == pattern)
            for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1), (5, 8)] {
                #expect(pattern.shifted(x: 1, y: 0).color(x: x, y: y) == pattern.color(x: x + 1, y: y))
                #expect(pattern.shifted(x: 0, y: 1).color(x: x, y: y) == pattern.color(x: x, y: y + 1))
            }
            #expect(pattern.colors.sorted() == [0, 1, 1, 2])
            #expect(pattern.bayer14FourCC.description == String(pattern.rawValue.prefix(3)) + "4")
        }
        #expect(CFAPattern.rggb.shifted(x: 1, y: 0) == .grbg)
        #expect(CFAPattern.rggb.shifted(x: 1, y: 1) == .bggr)
    }
}

@Suite struct SizeTests {
    @Test func fittingKeepsAspectAndNeverEnlarges() {
        let photo = Size(width: 4032, height: 3024)
        #expect(photo.fitted(within: Size(width: 1920, height: 1080)) == Size(width: 1440, height: 1080))
        #expect(photo.fitted(within: Size(width: 160, height: 160)) == Size(width: 160, height: 120))
        #expect(photo.fitted(within: Size(width: 8000, height: 8000)) == photo)
        #expect(Size(width: 3024, height: 4032).fitted(within: Size(width: 320, height: 320)) == Size(width: 240, height: 320))
        #expect(Size(width: 1, height: 10_000).fitted(within: Size(width: 100, height: 100)) == Size(width: 1, height: 100))
        #expect(Size(width: 10_000, height: 3).fitted(within: Size(width: 100, height: 100)) == Size(width: 100, height: 1))
    }

    @Test func emptySizesFitToZero() {
        #expect(Size.zero.fitted(within: Size(width: 10, height: 10)) == .zero)
        #expect(Size(width: 10, height: 10).fitted(within: .zero) == .zero)
        #expect(Size(width: -1, height: 10).fitted(within: Size(width: 5, height: 5)) == .zero)
    }

    @Test func countsAndText() {
        #expect(Size(width: 4032, height: 3024).pixelCount == 12_192_768)
        #expect(Size(width: 640, height: 480).description == "640×480")
    }
}
