import CaptureCore
import Testing
@testable import ImagePipeline

/// The ISP's bands (and the demosaic's chunks, twice their height) leave no seams: a frame whose lens the ISP corrects,
/// with lateral chromatic aberration for the demosaic's guides to follow, gives the same photo at any band height.
@Suite struct ImageSignalProcessorBandTests {
    /// A 1000×760 frame: ramps, edges and a checker (white-balanced colours), behind a barrel lens with ≈ 2 px of CA at the
    /// corners.
    static func raw() -> RawImage {
        let w = 1000, h = 760
        var bayer = Raster<UInt16>(width: w, height: h, channels: 1)
        for y in 0..<h {
            for x in 0..<w {
                let colour = (y & 1) * 2 + (x & 1)   // RGGB: 0 R, 1 and 2 G, 3 B
                let ramp = Double(x + 2 * y) / Double(w + 2 * h)
                let checker = ((x / 23) + (y / 17)) % 2 == 0 ? 0.35 : 0
                let tint = colour == 0 ? 0.8 : colour == 3 ? 0.6 : 1
                bayer[x, y] = UInt16(64 + (3900 * min(1, (ramp * 0.6 + checker) * tint)).rounded())
            }
        }
        var raw = RawImage(bayer: bayer, cfa: .rggb, bitDepth: 12, blackLevel: [64, 64, 64, 64], whiteLevel: 4095,
                           asShotNeutral: SIMD3(0.8, 1, 0.6), cameraToSRGB: Matrix3.identity,
                           noiseProfile: [(1e-4, 1e-6)], exposure: ExposureRecord(duration: 1.0 / 60, iso: 100))
        raw.lensCorrection = LensCorrection(size: Size(width: w, height: h),
                                            radial: [SIMD4(1.003, -0.02, 0, 0), SIMD4(1, -0.02, 0, 0), SIMD4(0.997, -0.02, 0, 0)])
        return raw
    }

    @Test func thePhotoDoesNotDependOnTheBandHeight() throws {
        let raw = Self.raw()
        var isp = ImageSignalProcessor()
        let lens = try #require(raw.lensCorrection)
        #expect(lens.greenAlignment(plane: 0, within: DemosaicStage.guideReach) != nil, "the demosaic follows the CA with guides")
        let reference = isp.process(raw)
        for height in [16, 48, 64] {
            isp.bandHeight = height
            let photo = isp.process(raw)
            let differing = zip(photo.storage, reference.storage).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) samples differ at \(height)-row bands")
        }
    }
}
