import CameraSimulation
import CaptureCore
import ImagePipeline

/// The video ISP: the photo pipeline with a phone's real-time trade-offs (Malvar-He-Cutler demosaic, no
/// spatial noise reduction or sharpening: together they cost 5 ms of a 33 ms frame at 1080p on 2 cores, no
/// distortion or lateral-CA correction),
/// cropped to the frame and converted to video-range 4:2:0 (`420v`, what iPhones stream and record) in the matrix of
/// the frame's size (`YCbCrMatrix.video`: BT.709 for HD), which movies made of the frames declare.
package enum VideoFrameDeveloper {
    /// ISP settings for stream frames in `colorSpace`.
    package static func settings(colorSpace: ColorSpace) -> ISPSettings {
        var settings = ISPSettings()
        settings.demosaic = .malvarHeCutler
        settings.noiseReduction = 0
        settings.sharpening = 0
        settings.correctsDistortion = false   // video keeps the lens's distortion, whatever formats are asked for
        settings.colorSpace = colorSpace
        return settings
    }

    /// Develops one raw frame to a `size` video-range 4:2:0 pixel buffer (plus the `extra` formats, from the
    /// same RGB; a `420f` one in the same matrix); nil only if a buffer cannot be made.
    package static func develop(_ raw: RawImage, size: Size, settings: ISPSettings,
                                extra: Set<FourCC> = []) -> (PixelBuffer, [FourCC: PixelBuffer])? {
        let isp = ImageSignalProcessor(settings: settings), cropped = raw.croppingRows(to: size.height)
        let matrix = YCbCrMatrix.video(width: size.width, height: size.height)
        // Only 420v: straight to Y′CbCr, two rows at a time. Other formats come from one 8-bit RGB image.
        if extra.isEmpty {
            guard let main = isp.processYCbCr420(cropped, fullRange: false, matrix: matrix) else { return nil }
            CoreVideoAttachment.tag(main, colorSpace: settings.colorSpace)
            return (main, [:])
        }
        let rgb = isp.process(cropped)
        guard let main = PhotoEncoder.pixelBuffer(rgb, format: "420v", colorSpace: settings.colorSpace, matrix: matrix) else { return nil }
        var others: [FourCC: PixelBuffer] = [:]
        for format in extra {
            others[format] = PhotoEncoder.pixelBuffer(rgb, format: format, colorSpace: settings.colorSpace, matrix: matrix)
        }
        return (main, others)
    }
}
