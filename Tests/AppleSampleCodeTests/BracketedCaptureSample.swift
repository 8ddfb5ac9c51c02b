/*
 Apple's "Capturing a bracketed photo sequence" sample (AVFoundation documentation), unchanged
 but for the codec fallback: the auto-exposure bracket built with
 `exposureValues.map(makeAutoExposureSettings)`, and a manual-exposure bracket.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation

extension MultiCaptureCamera {
    /// Apple's auto-exposure bracket: −2, 0, +2 EV, HEVC where available, lens stabilisation where supported.
    func makeAutoExposureBracket() -> AVCapturePhotoBracketSettings {
        let exposureValues: [Float] = [-2, 0, +2]
        let makeAutoExposureSettings = AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias:)
        let exposureSettings = exposureValues.map(makeAutoExposureSettings)

        let codec: AVVideoCodecType = photoOutput.availablePhotoCodecTypes.contains(.hevc) ? .hevc : .jpeg
        let photoSettings = AVCapturePhotoBracketSettings(rawPixelFormatType: 0,
                                                          processedFormat: [AVVideoCodecKey: codec],
                                                          bracketedSettings: exposureSettings)
        photoSettings.isLensStabilizationEnabled = self.photoOutput.isLensStabilizationDuringBracketedCaptureSupported
        return photoSettings
    }

    /// A manual-exposure bracket: the same ISO, doubling durations.
    func makeManualExposureBracket() -> AVCapturePhotoBracketSettings {
        let durations = [CMTimeMake(value: 1, timescale: 500), CMTimeMake(value: 1, timescale: 250), CMTimeMake(value: 1, timescale: 125)]
        let bracketedSettings = durations.map {
            AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: $0, iso: 100)
        }
        return AVCapturePhotoBracketSettings(rawPixelFormatType: 0,
                                             processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                             bracketedSettings: bracketedSettings)
    }
}
