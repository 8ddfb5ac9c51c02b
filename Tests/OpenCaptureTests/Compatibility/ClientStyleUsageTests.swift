// Written the way iOS client code uses these APIs; only `import OpenCapture` changes.
import Foundation
import Testing
import OpenCapture

@Suite struct ClientStyleUsageTests {
    @Test func typicalClientCode() throws {
        let dims = CMVideoDimensions(width: 4032, height: 3024)
        #expect(Int(dims.width) * Int(dims.height) == 12_192_768)

        let attributes = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        #expect(attributes["PixelFormatType"] == 0x42475241)
        var pixelBuffer: CVPixelBuffer?
        let status = CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA,
                                         attributes as CFDictionary, &pixelBuffer)
        guard status == kCVReturnSuccess, let buffer = pixelBuffer else {
            Issue.record("CVPixelBufferCreate failed: \(status)"); return
        }
        CVPixelBufferLockBaseAddress(buffer, CVPixelBufferLockFlags(rawValue: 0))
        defer { CVPixelBufferUnlockBaseAddress(buffer, CVPixelBufferLockFlags(rawValue: 0)) }
        #expect(CVPixelBufferGetWidth(buffer) == 64)

        let half = CMTimeMakeWithSeconds(1.5, preferredTimescale: 600)
        #expect(half.value == 900)
        #expect(CMTimeGetSeconds(CMTimeAdd(half, CMTime(value: 1, timescale: 2))) == 2.0)
        let range = CMTimeRangeMake(start: kCMTimeZero, duration: half)
        #expect(CMTimeRangeContainsTime(range, time: CMTime(seconds: 1, preferredTimescale: 1)))

        #expect(AVVideoCodecType.hevc.rawValue == "hvc1")
        let settings: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.jpeg,
                                       AVVideoCompressionPropertiesKey: [AVVideoQualityKey: 0.9]]
        #expect((settings[AVVideoCodecKey] as? AVVideoCodecType) == .jpeg)
        #expect(AVFileType.heic.rawValue == "public.heic" && AVFileType.dng.rawValue == "com.adobe.raw-image")
        #expect(AVMediaType.video.rawValue == "vide" && AVMediaType.depthData.rawValue == "dpth")

        let error: Error = AVError(.maximumStillImageCaptureRequestsExceeded)
        if let avError = error as? AVError, avError.code == .maximumStillImageCaptureRequestsExceeded {
            #expect(avError.errorCode == -11830)
        } else {
            Issue.record("expected AVError")
        }
        let nsError = error as NSError
        #expect(nsError.domain == AVFoundationErrorDomain && nsError.code == -11830)
        #expect(AVError.Code.sessionNotRunning.rawValue == -11803)
        #expect(AVError(.unknown, userInfo: [AVErrorRecordingSuccessfullyFinishedKey: true]).recordingSuccessfullyFinished == true)
    }
}
