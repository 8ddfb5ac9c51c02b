import CaptureCore
import Testing
@testable import OpenCapture

@Suite struct AVPortraitEffectsMatteTests {
    @Test func engineInitialiserQuantisesCoverageToEightBits() throws {
        let matte = try #require(AVPortraitEffectsMatte(matte: Raster(width: 6, height: 1, storage: [0, 0.5, 1, .nan, -1, 2])))
        #expect(matte.pixelFormatType == kCVPixelFormatType_OneComponent8)
        #expect(CVPixelBufferGetPixelFormatType(matte.mattingImage) == kCVPixelFormatType_OneComponent8)
        #expect(readBuffer(matte.mattingImage) == [[0, 128, 255, 0, 0, 255]])
        #expect(matte.matte.storage == [0, 128.0 / 255, 1, 0, 0, 1])
        #expect(AVPortraitEffectsMatte(matte: Raster(width: 1, height: 1, channels: 2, storage: [0, 0])) == nil)
        #expect(AVPortraitEffectsMatte(matte: Raster(width: 0, height: 0)) == nil)
    }

    @Test func replacingTheMatteNeedsOneComponent8() throws {
        let first = try #require(makeBuffer([[1, 2]], type: kCVPixelFormatType_OneComponent8))
        let matte = try AVPortraitEffectsMatte(mattingImage: first)
        #expect(matte.mattingImage === first)
        let second = try #require(makeBuffer([[9]], type: kCVPixelFormatType_OneComponent8))
        #expect(try matte.replacingPortraitEffectsMatte(with: second).mattingImage === second)
        let depth = try #require(makeBuffer([[1]], type: kCVPixelFormatType_DepthFloat16))
        #expect(throws: DepthDataError.unsupportedPixelFormat(kCVPixelFormatType_DepthFloat16)) {
            try matte.replacingPortraitEffectsMatte(with: depth)
        }
        #expect(throws: DepthDataError.unsupportedPixelFormat(kCVPixelFormatType_DepthFloat16)) {
            try AVPortraitEffectsMatte(mattingImage: depth)
        }
    }
}
