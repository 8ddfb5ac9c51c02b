import CameraSimulation
import CaptureCore
import ImagePipeline

/// The video ISP: the photo pipeline with a phone's video trade-offs (Malvar-He-Cutler demosaic,
/// light noise reduction, mild sharpening), cropped to the frame and converted to `420f`.
package enum VideoFrameDeveloper {
    /// ISP settings for stream frames in `colorSpace`.
    package static func settings(colorSpace: ColorSpace) -> ISPSettings {
        var settings = ISPSettings()
        settings.demosaic = .malvarHeCutler
        settings.noiseReduction = 0.5
        settings.sharpening = 0.3
        settings.colorSpace = colorSpace
        return settings
    }

    /// Develops one raw frame to a `size` full-range 4:2:0 pixel buffer (plus the `extra` formats, from the
    /// same RGB); nil only if a buffer cannot be made.
    package static func develop(_ raw: RawImage, size: Size, settings: ISPSettings,
                                extra: Set<FourCC> = []) -> (PixelBuffer, [FourCC: PixelBuffer])? {
        let rgb = ImageSignalProcessor(settings: settings).process(raw.croppingRows(to: size.height))
        guard let main = PixelBuffer.yCbCr420(from: rgb, fullRange: true) else { return nil }
        var others: [FourCC: PixelBuffer] = [:]
        for format in extra { others[format] = PhotoEncoder.pixelBuffer(rgb, format: format) }
        return (main, others)
    }
}
