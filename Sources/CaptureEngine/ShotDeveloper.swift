import CaptureCore
import ImagePipeline

/// Develops one shot: merges its frames (still-image stabilisation), crops the readout to the
/// photo's rows and runs the ISP with the request's quality and colour space.
package enum ShotDeveloper {
    package static func develop(_ frames: [RawImage], request: CaptureRequest) -> (raw: RawImage, rgb: Raster<UInt8>) {
        var raw = frames.count > 1 ? RawFrameMerger.merge(frames) : frames[0]
        raw = raw.croppingRows(to: request.photoSize.height)
        let rgb = ImageSignalProcessor(settings: ispSettings(request)).process(raw)
        return (raw, rgb)
    }

    /// The ISP for a quality prioritisation: `.speed` denoises lightly (and demosaics bilinearly unless RAW is
    /// delivered beside it: a Bayer RAW capture is `.speed` by rule, and its processed photo keeps the default
    /// demosaic, whose lens correction leaves no colour fringes at high-contrast edges), `.quality` denoises more.
    package static func ispSettings(_ request: CaptureRequest) -> ISPSettings {
        var isp = ISPSettings()
        switch request.quality {
        case .speed:
            isp.noiseReduction = 0.6
            if request.raw == nil { isp.demosaic = .bilinear }
        case .balanced: isp.noiseReduction = 1
        case .quality: isp.noiseReduction = 1.2
        }
        isp.colorSpace = request.colorSpace
        // Locked white balance: the device's gains (the DNG keeps the camera's calibration and auto AsShotNeutral).
        if let neutral = request.device.whiteBalanceNeutral { isp.whiteBalance = 1 / neutral }
        isp.correctsDistortion = request.device.correctsDistortion
        return isp
    }
}
