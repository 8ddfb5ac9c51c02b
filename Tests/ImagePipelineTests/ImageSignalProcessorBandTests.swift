import CaptureCore
import Foundation
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

/// `process(_:bandsTo:)` and `process16(_:bandsTo:)` hand over the photos `process` and `process16` make, in whole
/// bands of `outputBandHeight` rows (the last one shorter), each once.
@Suite struct ImageSignalProcessorBandSinkTests {
    /// The bands `sink` was given, assembled; with the rows each band covered.
    static func assemble<Sample>(_ isp: ImageSignalProcessor, _ raw: RawImage, of: Sample.Type,
                                 run: (ImageSignalProcessor, RawImage, (Range<Int>, UnsafeRawBufferPointer) -> Void) -> Void)
        -> (image: Raster<Sample>, bands: [Range<Int>]) where Sample: FixedWidthInteger {
        var image = Raster<Sample>(width: raw.width, height: raw.height, channels: 3)
        var bands: [Range<Int>] = []
        let lock = NSLock()
        let rowCount = 3 * raw.width
        run(isp, raw) { rows, pixels in
            lock.lock()
            defer { lock.unlock() }
            bands.append(rows)
            let samples = pixels.bindMemory(to: Sample.self)
            for k in 0..<rows.count * rowCount { image.storage[rows.lowerBound * rowCount + k] = samples[k] }
        }
        return (image, bands.sorted { $0.lowerBound < $1.lowerBound })
    }

    @Test func theBandsMakeTheSamePhotos() {
        let raw = ImageSignalProcessorBandTests.raw()   // 760 rows: 23 bands of 32 and one of 24
        for correctingLens in [true, false] {
            var isp = ImageSignalProcessor()
            isp.settings.correctsDistortion = correctingLens
            let eight = Self.assemble(isp, raw, of: UInt8.self) { $0.process($1, bandsTo: $2) }
            #expect(eight.image == isp.process(raw))
            #expect(eight.bands == RowBands(height: 760, bandHeight: isp.outputBandHeight).map { $0 })
            #expect(eight.bands.last == 736..<760)
            let sixteen = Self.assemble(isp, raw, of: UInt16.self) { $0.process16($1, bandsTo: $2) }
            #expect(sixteen.image == isp.process16(raw))
            #expect(sixteen.bands.count == 24)
        }
    }
}
