import Testing
import OpenCapture

@Suite struct CVPixelBufferTests {
    private func make(_ w: Int, _ h: Int, _ format: OSType) -> (CVReturn, CVPixelBuffer?) {
        var buffer: CVPixelBuffer?
        let status = CVPixelBufferCreate(kCFAllocatorDefault, w, h, format, nil, &buffer)
        return (status, buffer)
    }

    @Test func bgraBuffer() throws {
        let (status, made) = make(33, 10, kCVPixelFormatType_32BGRA)
        #expect(status == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferGetWidth(buffer) == 33 && CVPixelBufferGetHeight(buffer) == 10)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        #expect(!CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 0)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        #expect(stride >= 33 * 4 && stride % 64 == 0 && stride == 192)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 0) == 0)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 0) == nil)

        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        base.storeBytes(of: 0xAB, toByteOffset: stride * 2 + 4, as: UInt8.self)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnSuccess)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnError)

        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        let again = try #require(CVPixelBufferGetBaseAddress(buffer))
        #expect(again.load(fromByteOffset: stride * 2 + 4, as: UInt8.self) == 0xAB)
        #expect(again.load(fromByteOffset: stride * 2 + 5, as: UInt8.self) == 0)
        CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
    }

    @Test func biPlanarFullRangeBuffer() throws {
        let (status, made) = make(101, 51, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        #expect(status == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 2)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 0) == 101 && CVPixelBufferGetHeightOfPlane(buffer, 0) == 51)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 51 && CVPixelBufferGetHeightOfPlane(buffer, 1) == 26)
        let yStride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0), cStride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
        #expect(yStride == 128 && cStride == 128)
        #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 2) == 0)
        #expect(CVPixelBufferGetDataSize(buffer) == 128 * 51 + 128 * 26)

        CVPixelBufferLockBaseAddress(buffer, [])
        let y = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 0))
        let c = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 1))
        #expect(c - y >= yStride * 51)
        c.storeBytes(of: 200, toByteOffset: cStride + 1, as: UInt8.self)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 1)!.load(fromByteOffset: cStride + 1, as: UInt8.self) == 200)
        #expect(y.load(fromByteOffset: yStride * 50 + 100, as: UInt8.self) == 0)
        CVPixelBufferUnlockBaseAddress(buffer, [])
    }

    @Test func createFailures() {
        #expect(make(0, 10, kCVPixelFormatType_32BGRA).0 == kCVReturnInvalidSize)
        let (status, buffer) = make(4, 4, kCVPixelFormatType_32ARGB)
        #expect(status == kCVReturnInvalidPixelFormat && buffer == nil)
    }

    @Test func formatCodesMatchFourCharacters() {
        func code(_ s: String) -> OSType { s.utf8.reduce(0) { ($0 << 8) | OSType($1) } }
        #expect(kCVPixelFormatType_32BGRA == code("BGRA"))
        #expect(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange == code("420v"))
        #expect(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange == code("420f"))
        #expect(kCVPixelFormatType_14Bayer_GRBG == code("grb4") && kCVPixelFormatType_14Bayer_RGGB == code("rgg4"))
        #expect(kCVPixelFormatType_14Bayer_BGGR == code("bgg4") && kCVPixelFormatType_14Bayer_GBRG == code("gbr4"))
        #expect(kCVPixelFormatType_DisparityFloat16 == code("hdis") && kCVPixelFormatType_DisparityFloat32 == code("fdis"))
        #expect(kCVPixelFormatType_DepthFloat16 == code("hdep") && kCVPixelFormatType_DepthFloat32 == code("fdep"))
        #expect(kCVPixelFormatType_OneComponent8 == code("L008") && kCVPixelFormatType_24RGB == 24 && kCVPixelFormatType_32ARGB == 32)
        #expect(kCMVideoCodecType_JPEG == code("jpeg") && kCMVideoCodecType_HEVC == code("hvc1") && kCMVideoCodecType_H264 == code("avc1"))
    }
}
