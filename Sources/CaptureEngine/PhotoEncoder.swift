import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// Encodes developed pixels into what a request delivers: JPEG or HEIC files, pixel buffers with
/// a TIFF on demand, and RAW Bayer buffers with a DNG on demand.
package enum PhotoEncoder {
    /// The processed photo's file or buffer.
    package struct Processed: Sendable {
        package var fileData: Data?
        package var fileDataProvider: (@Sendable () -> Data?)?
        package var pixelBuffer: PixelBuffer?

        init(fileData: Data? = nil, pixelBuffer: PixelBuffer? = nil, fileDataProvider: (@Sendable () -> Data?)? = nil) {
            self.fileData = fileData
            self.fileDataProvider = fileDataProvider
            self.pixelBuffer = pixelBuffer
        }
    }

    /// `depth` and `matte` are embedded in HEIC (auxiliary images) and JPEG (MPF secondary images)
    /// files as iPhones do; uncompressed photos have no file to carry them.
    package static func encode(_ rgb: Raster<UInt8>, as delivery: ProcessedDelivery, exif: ExifMetadata,
                               request: CaptureRequest, depth: DepthMap? = nil, matte: Raster<Float>? = nil) throws -> Processed {
        let depthImage = depth.map { DepthAuxiliaryImage(map: $0, nativeFormat: request.depth?.pixelFormat) }
        let matteImage = matte.map { MatteAuxiliaryImage(matte: $0) }
        switch delivery {
        case .jpeg(let quality):
            let thumbnail = try request.thumbnailSize.map {
                try JPEGEncoder.encode(Resampler.downscale(rgb, to: $0), quality: 80)
            }
            let data = try JPEGEncoder.encode(rgb, quality: max(1, min(100, Int((quality * 100).rounded()))), exif: exif,
                                              thumbnailJPEG: thumbnail, iccProfile: ICCProfile.data(for: request.colorSpace),
                                              depth: depthImage, portraitMatte: matteImage)
            return Processed(fileData: data)
        case .hevc(let quality):
            var options = HEIFEncodingOptions()
            options.quality = quality
            options.colorSpace = request.colorSpace
            options.exif = exif
            options.orientation = exif.orientation
            // A thumbnail only when asked for (Apple: a nil embeddedThumbnailPhotoFormat embeds none).
            options.thumbnailMaxDimension = request.thumbnailSize.map { max($0.width, $0.height) }
            options.depth = depthImage
            options.portraitMatte = matteImage
            return Processed(fileData: try HEIFEncoder.encode(rgb, options: options))
        case .uncompressed(let format):
            let profile = ICCProfile.data(for: request.colorSpace)
            return Processed(pixelBuffer: pixelBuffer(rgb, format: format, colorSpace: request.colorSpace), fileDataProvider: {
                try? TIFFCodec.encode(rgb, orientation: exif.orientation, exif: exif, iccProfile: profile)
            })
        }
    }

    /// The RAW photo: the Bayer mosaic as a buffer (with its black and white levels attached) and a DNG on demand.
    package static func raw(_ raw: RawImage, rgb: Raster<UInt8>, colorSpace: ColorSpace, delivery: RawDelivery, exif: ExifMetadata,
                            photoSize: Size) -> (buffer: PixelBuffer?, dng: @Sendable () -> Data?) {
        let bayer = PixelBuffer.uint16(from: raw.bayer, pixelFormat: delivery.pixelFormat)
        bayer?.attachments["BlackLevel"] = raw.blackLevel.map { String(Int($0)) }.joined(separator: " ")
        bayer?.attachments["WhiteLevel"] = String(raw.whiteLevel)
        let previewSize = delivery.thumbnail ?? photoSize.fitted(within: Size(width: 256, height: 256))
        // DNG previews are sRGB (PreviewColorSpace has no code for Display P3).
        let preview = ColorSpace.sRGB.converting(Resampler.downscale(rgb, to: previewSize), from: colorSpace)
        let metadata = DNGMetadata.derived(from: raw, make: exif.make ?? "OpenCapture", model: exif.model ?? "Simulated Camera",
                                           exif: exif)
        return (bayer, { try? DNGWriter.write(raw, metadata: metadata, preview: preview) })
    }

    /// A buffer of a supported uncompressed format (BGRA, 4:2:0 full or video range) tagged with `colorSpace`
    /// (`CoreVideoAttachment`), or nil. Y′CbCr is in `matrix` (BT.601 for photos and their previews, as JPEG; a video
    /// frame's matrix for the stream's).
    package static func pixelBuffer(_ rgb: Raster<UInt8>, format: FourCC, colorSpace: ColorSpace,
                                    matrix: YCbCrMatrix = .bt601) -> PixelBuffer? {
        let buffer: PixelBuffer?
        switch format {
        case "BGRA": buffer = PixelBuffer.bgra(from: rgb)
        case "420f": buffer = PixelBuffer.yCbCr420(from: rgb, fullRange: true, matrix: matrix)
        case "420v": buffer = PixelBuffer.yCbCr420(from: rgb, fullRange: false, matrix: matrix)
        default: buffer = nil
        }
        if let buffer { CoreVideoAttachment.tag(buffer, colorSpace: colorSpace) }
        return buffer
    }
}
