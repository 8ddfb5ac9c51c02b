import CaptureCore
import Depth
import Foundation
import ImagePipeline
import MediaFormats
import OpenCapture
import OpenCapturePhotos

/// What the page shows of an asset, made on demand from the library's files: browser-ready JPEGs
/// (thumbnails, the full photo, a RAW developed), the depth map in colour, and the EXIF as a table.
enum StudioMedia {
    /// The asset's bytes for a resource type (the first of that type).
    static func data(of asset: PHAsset, type: PHAssetResourceType = .photo) throws -> Data {
        guard let resource = PHAssetResource.assetResources(for: asset).first(where: { $0.type == type }) else {
            throw StudioError(status: 404, "the asset has no \(type) resource")
        }
        return try read(resource)
    }

    static func read(_ resource: PHAssetResource) throws -> Data {
        do { return try PHAssetResourceManager.default().data(for: resource) } catch { throw StudioError(status: 500, "\(error)") }
    }

    /// Pixels of any photo the library accepts (JPEG, PNG, TIFF, HEIC, DNG/raw developed).
    static func decode(_ data: Data) throws -> Raster<UInt8> {
        do {
            switch FileKind.of(data) {
            case .jpeg: return try JPEGDecoder.decode(data)
            case .png: return try PNGCodec.decode(data)
            case .tiff: return try TIFFCodec.decode(data)
            case .heif: return try HEIFDecoder.decode(data)
            case .dng, .cameraRaw: return try JPEGDecoder.decode(try RawDeveloper().develop(data, as: .jpeg).data)
            default: throw StudioError(status: 415, "not an image the studio can show")
            }
        } catch let error as StudioError {
            throw error
        } catch {
            throw StudioError(status: 422, "the photo cannot be decoded: \(error)")
        }
    }

    /// A JPEG whose longer side is at most `side` pixels (the original bytes when it already is a JPEG that small).
    static func jpeg(_ data: Data, maxSide side: Int) throws -> Data {
        if FileKind.of(data) == .jpeg, let size = try? JPEGDecoder.size(of: data), max(size.width, size.height) <= side { return data }
        var image = try decode(data)
        let longest = max(image.width, image.height)
        if longest > side {
            let scale = Double(side) / Double(longest)
            image = Resampler.downscale(image, to: Size(width: max(1, Int(Double(image.width) * scale)),
                                                        height: max(1, Int(Double(image.height) * scale))))
        }
        return try JPEGEncoder.encode(image, quality: 85)
    }

    /// The photo's embedded depth, colourised (near warm, far cool), as PNG.
    static func depthPNG(_ data: Data) throws -> Data {
        guard let depth = (try? EmbeddedDepthReader.read(data))?.depth else {
            throw StudioError(status: 404, "the photo carries no depth")
        }
        return try PNGCodec.encode(DepthColorMap.colorized(depth))
    }

    /// The photo's embedded portrait effects matte, as a grey PNG.
    static func mattePNG(_ data: Data) throws -> Data {
        guard let matte = (try? EmbeddedDepthReader.read(data))?.matte else {
            throw StudioError(status: 404, "the photo carries no portrait matte")
        }
        var grey = Raster<UInt8>(width: matte.width, height: matte.height, channels: 3)
        for i in 0..<(matte.width * matte.height) {
            let v = UInt8(min(max(matte.storage[i] * 255, 0), 255).rounded())
            for c in 0..<3 { grey.storage[3 * i + c] = v }
        }
        return try PNGCodec.encode(grey)
    }

    /// The photo re-rendered with a shallow depth of field from its depth (OpenCapture's portrait tool).
    static func portraitJPEG(_ data: Data) throws -> Data {
        var rendering = PortraitRendering()
        rendering.aperture = 2
        do { return try rendering.render(photo: data) } catch { throw StudioError(status: 422, "\(error)") }
    }

    /// EXIF and file facts as (section, name, value) rows.
    static func facts(_ data: Data) -> [[String: String]] {
        guard let report = try? FileInspector.inspect(data) else { return [] }
        return report.entries.map { ["section": $0.section, "name": $0.name, "value": $0.value] }
    }
}
