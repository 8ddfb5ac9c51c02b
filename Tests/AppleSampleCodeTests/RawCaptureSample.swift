/*
 Apple's RAW samples (AVFoundation documentation "Capturing Photos in RAW and Apple ProRAW Formats",
 and the RAW bracket listing on the AVCapturePhotoBracketSettings page), plus the preview-format
 snippet, unchanged. Apple's `fatalError` for a camera without RAW stays: simulated cameras have one.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation

extension MultiCaptureCamera {
    /// RAW + HEVC, choosing ProRAW when it is enabled and Bayer RAW otherwise.
    func makeRawPlusProcessedSettings() -> AVCapturePhotoSettings {
        let query = photoOutput.isAppleProRAWEnabled ?
            { AVCapturePhotoOutput.isAppleProRAWPixelFormat($0) } :
            { AVCapturePhotoOutput.isBayerRAWPixelFormat($0) }

        // Retrieve the RAW format, favoring the Apple ProRAW format when it's in an enabled state.
        guard let rawFormat =
                photoOutput.availableRawPhotoPixelFormatTypes.first(where: query) else {
            fatalError("No RAW format found.")
        }

        // Capture a RAW format photo, along with a processed format photo.
        let processedPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.hevc]
        let photoSettings = AVCapturePhotoSettings(rawPixelFormatType: rawFormat,
                                                   processedFormat: processedPhotoFormat)
        return photoSettings
    }

    /// A RAW + JPEG auto-exposure bracket of three.
    func makeRawBracket() -> AVCapturePhotoBracketSettings {
        let rawFormat = photoOutput.availableRawPhotoPixelFormatTypes.first!
        let bracketedStillImageSettings = [-2, 0, 2].map {
            AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: Float($0))
        }
        return AVCapturePhotoBracketSettings(rawPixelFormatType: rawFormat,
                                             processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                             bracketedSettings: bracketedStillImageSettings)
    }

    /// A preview that fits in 160×160.
    func makeSettingsWithPreview() -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings()
        let previewPixelType = settings.availablePreviewPhotoPixelFormatTypes.first!
        let previewFormat = [kCVPixelBufferPixelFormatTypeKey as String: previewPixelType,
                             kCVPixelBufferWidthKey as String: 160,
                             kCVPixelBufferHeightKey as String: 160]
        settings.previewPhotoFormat = previewFormat
        return settings
    }
}
