import CaptureCore
import Testing
@testable import ImagePipeline

@Suite struct ImageSignalProcessorYCbCrTests {
    /// The video path (straight to Y′CbCr two rows at a time) gives the same bytes as the photo path followed by
    /// the 4:2:0 conversion, for even and odd sizes and both ranges.
    @Test(arguments: [(64, 48), (67, 41), (130, 97)], [false, true])
    func straightToYCbCrMatchesRGBThenConversion(size: (Int, Int), fullRange: Bool) throws {
        let raw = Fixtures.raw(from: Fixtures.colorful(width: size.0, height: size.1))
        var settings = ISPSettings()
        settings.demosaic = .malvarHeCutler
        settings.noiseReduction = 0
        settings.sharpening = 0
        let isp = ImageSignalProcessor(settings: settings)
        let direct = try #require(isp.processYCbCr420(raw, fullRange: fullRange))
        let reference = try #require(PixelBuffer.yCbCr420(from: isp.process(raw), fullRange: fullRange))
        #expect(direct.pixelFormat == reference.pixelFormat)
        for plane in 0..<2 {
            let a = direct.baseAddress(ofPlane: plane)!.assumingMemoryBound(to: UInt8.self)
            let b = reference.baseAddress(ofPlane: plane)!.assumingMemoryBound(to: UInt8.self)
            let p = direct.planes[plane]
            var differing = 0
            for y in 0..<p.height { for x in 0..<(p.width * p.bytesPerPixel) where a[y * p.bytesPerRow + x] != b[y * p.bytesPerRow + x] { differing += 1 } }
            #expect(differing == 0, "plane \(plane): \(differing) bytes differ")
        }
    }
}
