import Testing
@testable import OpenCapture

/// The depth, disparity and matte pixel formats through the CoreVideo functions.
@Suite struct DepthPixelFormatTests {
    @Test(arguments: [
        (kCVPixelFormatType_DisparityFloat16, "hdis", 2), (kCVPixelFormatType_DisparityFloat32, "fdis", 4),
        (kCVPixelFormatType_DepthFloat16, "hdep", 2), (kCVPixelFormatType_DepthFloat32, "fdep", 4),
        (kCVPixelFormatType_OneComponent8, "L008", 1),
    ])
    func createLockAndAccess(type: OSType, code: String, bytesPerPixel: Int) throws {
        #expect(type == code.utf8.reduce(0) { ($0 << 8) | OSType($1) })
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(kCFAllocatorDefault, 37, 3, type, nil, &made) == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == type)
        #expect(CVPixelBufferGetWidth(buffer) == 37 && CVPixelBufferGetHeight(buffer) == 3)
        #expect(!CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 0)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        #expect(stride == (37 * bytesPerPixel + 63) / 64 * 64)

        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        switch bytesPerPixel {
        case 2: base.storeBytes(of: Float16(0.333), toByteOffset: stride * 2 + 2 * 36, as: Float16.self)
        case 4: base.storeBytes(of: Float(0.333), toByteOffset: stride * 2 + 4 * 36, as: Float.self)
        default: base.storeBytes(of: UInt8(200), toByteOffset: stride * 2 + 36, as: UInt8.self)
        }
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnSuccess)

        let rows = readBuffer(buffer)
        switch bytesPerPixel {
        // 0.333 as a half float is 0.33300781 (10-bit mantissa), as a float 0.333.
        case 2: #expect(rows[2][36] == 0.33300781)
        case 4: #expect(rows[2][36] == 0.333)
        default: #expect(rows[2][36] == 200)
        }
        #expect(rows[2][35] == 0 && rows[0][0] == 0, "new buffers are zero-filled")
    }

    @Test func halfFloatsRoundToNearestEvenAndOverflowToInfinity() {
        // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
        #expect(Float(Float16(Float(1) + 0x1p-11)) == 1)
        // 1 + 3·2^-11 lies halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
        #expect(Float(Float16(Float(1) + 3 * 0x1p-11)) == 1 + 0x1p-9)
        #expect(Float16(Float(70_000)) == .infinity && Float16(Float.nan).isNaN)
    }
}
