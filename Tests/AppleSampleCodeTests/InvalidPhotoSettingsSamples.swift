/*
 Photo settings mistakes as apps really write them. On iOS each of these makes
 -[AVCapturePhotoOutput capturePhotoWithSettings:delegate:] raise NSInvalidArgumentException,
 which Swift cannot catch, so an iOS app must check before capturing. OpenCapture documents a
 recoverable alternative: `photoOutput.validate(_:)` throws a `PhotoSettingsError`, and
 `capturePhoto(with:delegate:)` with such settings captures nothing and calls only
 `photoOutput(_:didFinishCaptureFor:error:)` with that error. OpenCapture-only code sits in
 `#if !canImport(AVFoundation)`.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation

enum InvalidPhotoSettingsSamples {
    /// Mistake 1: keeping one settings object around and capturing with it every time.
    static func reusedSettings(firstShot: AVCapturePhotoSettings) -> AVCapturePhotoSettings {
        firstShot // the fix is AVCapturePhotoSettings(from: firstShot), which gets a new uniqueID
    }
    
    /// Mistake 2: a format dictionary that asks for both a codec and an uncompressed pixel format.
    static func codecAndPixelFormat() -> AVCapturePhotoSettings {
        AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg,
                                        kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
    }
    
    /// Mistake 3: asking for HEVC without checking availablePhotoCodecTypes.
    static func hevcWithoutChecking() -> AVCapturePhotoSettings {
        AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
    }
    
    /// Mistake 4: forcing the flash on whatever camera is active, without checking supportedFlashModes.
    static func flashOn() -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .on
        return settings
    }
    
    /// Mistake 5: .quality prioritization while the output's maximum is still the default .balanced.
    static func qualityAboveMaximum() -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings()
        settings.photoQualityPrioritization = .quality
        return settings
    }
    
    /// Mistake 6: high-resolution photo without enabling high-resolution capture on the output.
    static func highResolutionNotEnabled() -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings()
        settings.isHighResolutionPhotoEnabled = true
        return settings
    }
    
    /// How an app guards a capture. On iOS only the documented pre-checks are possible;
    /// with OpenCapture the output itself says what is wrong.
    static func canCapture(_ settings: AVCapturePhotoSettings, with photoOutput: AVCapturePhotoOutput) -> Error? {
        #if !canImport(AVFoundation)
        do {
            try photoOutput.validate(settings)
            return nil
        } catch {
            return error
        }
        #else
        if !photoOutput.supportedFlashModes.contains(settings.flashMode) { return NSError(domain: "App", code: 1) }
        if settings.photoQualityPrioritization.rawValue > photoOutput.maxPhotoQualityPrioritization.rawValue { return NSError(domain: "App", code: 2) }
        return nil
        #endif
    }
}
