import Foundation
import Testing
@testable import OpenCapture

/// CoreVideo's attachment functions: photo buffers say their colour space, RAW buffers their levels.
@Suite struct CVBufferAttachmentTests {
    @Test func photoBuffersCarryTheirColourSpace() async throws {
        for (wideColor, primaries) in [(true, kCVImageBufferColorPrimaries_P3_D65), (false, kCVImageBufferColorPrimaries_ITU_R_709_2)] {
            let rig = CaptureRig(wideColor: wideColor)
            for format in [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange] {
                let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: format])
                let buffer = try #require(try await rig.capture(settings).photos.first?.pixelBuffer)
                let attachments = try #require(CVBufferCopyAttachments(buffer, .shouldPropagate) as? [String: Any])
                #expect(attachments[kCVImageBufferColorPrimariesKey] as? String == primaries)
                #expect(attachments[kCVImageBufferTransferFunctionKey] as? String == kCVImageBufferTransferFunction_sRGB)
                let matrix = CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String
                #expect(matrix == (format == kCVPixelFormatType_32BGRA ? nil : kCVImageBufferYCbCrMatrix_ITU_R_601_4))
                #expect(CVBufferCopyAttachments(buffer, .shouldNotPropagate) == nil)
            }
        }
    }

    @Test func rawBuffersCarryTheirLevelsAndAttachmentsCanBeChanged() async throws {
        let rig = CaptureRig()
        let raw = AVCapturePhotoSettings(rawPixelFormatType: rig.output.availableRawPhotoPixelFormatTypes[0])
        let buffer = try #require(try await rig.capture(raw).photos.first?.pixelBuffer)
        var mode = CVAttachmentMode.shouldNotPropagate
        #expect(CVBufferCopyAttachment(buffer, "WhiteLevel", &mode) as? String == "16383" && mode == .shouldPropagate)
        #expect(CVBufferHasAttachment(buffer, "BlackLevel") && !CVBufferHasAttachment(buffer, kCVImageBufferColorPrimariesKey))
        CVBufferSetAttachment(buffer, "Note", "kept" as NSString, .shouldPropagate)
        CVBufferSetAttachment(buffer, "Count", NSNumber(value: 3), .shouldPropagate)
        #expect(CVBufferCopyAttachment(buffer, "Note", nil) as? String == "kept")
        #expect(CVBufferCopyAttachment(buffer, "Count", nil) as? String == "3")
        CVBufferRemoveAttachment(buffer, "Note")
        #expect(!CVBufferHasAttachment(buffer, "Note"))
        CVBufferRemoveAllAttachments(buffer)
        #expect(CVBufferCopyAttachments(buffer, .shouldPropagate) == nil)
    }
}
