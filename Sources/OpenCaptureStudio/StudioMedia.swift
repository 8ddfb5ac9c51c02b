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

    /// Runs `body`, whose refusal (a 4xx or 5xx `StudioError`) then names the file as the user knows it: the asset's
    /// resource of `type` (its photo, or a video's movie, by default) by its original filename, said first and put in
    /// place of the library's stored name (the SHA-256 of its bytes), which means nothing to the user.
    static func naming<T>(_ asset: PHAsset, _ type: PHAssetResourceType? = nil, _ body: () throws -> T) throws -> T {
        let type = type ?? (asset.mediaType == .video ? .video : .photo)
        do { return try body() } catch let error as StudioError {
            guard let resource = PHAssetResource.assetResources(for: asset).first(where: { $0.type == type }) else { throw error }
            throw error.naming(resource)
        }
    }

    /// `body` for one resource, its refusal naming the resource's original file (see above).
    static func naming<T>(_ resource: PHAssetResource, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as StudioError { throw error.naming(resource) }
    }

    static func read(_ resource: PHAssetResource) throws -> Data {
        do { return try PHAssetResourceManager.default().data(for: resource) } catch { throw StudioError(status: 500, "\(error)") }
    }

    /// The HTTP type of a stored file by its uniform type: a QuickTime movie (a Live Photo's) is video/quicktime, an
    /// MPEG-4 one video/mp4.
    static func mimeType(of resource: PHAssetResource) -> String {
        switch resource.uniformTypeIdentifier {
        case "com.apple.quicktime-movie": return "video/quicktime"
        case "public.mpeg-4": return "video/mp4"
        default: return "application/octet-stream"
        }
    }

    /// Pixels of any photo the library accepts (JPEG, PNG, TIFF, HEIC, DNG/raw developed), as displayed: its EXIF
    /// orientation applied, so a front camera's mirrored photo and a phone's turned one show as every reader shows them.
    static func decode(_ data: Data) throws -> Raster<UInt8> {
        let (pixels, orientation) = try storedPixels(data)
        return upright(pixels, orientation: orientation)
    }

    /// The pixels as stored and the orientation that turns them as displayed (1 for a HEIC, which libheif turns).
    private static func storedPixels(_ data: Data) throws -> (Raster<UInt8>, orientation: Int) {
        do {
            switch FileKind.of(data) {
            case .jpeg: return (try JPEGDecoder.decode(data), orientation(of: data))
            // A transparent PNG or HEIC shows over white, as a page and a photo viewer's thumbnail show it (a JPEG has no
            // alpha; dropping it would show the colours stored under what is hidden, often black).
            case .png: return (try PNGCodec.decode(data, transparency: .overWhite), orientation(of: data))
            case .tiff: return (try TIFFCodec.decode(data), orientation(of: data))
            case .heif: return (try HEIFDecoder.decode(data, transparency: .overWhite), 1)
            // The developed JPEG carries the raw's orientation in its EXIF, its pixels as the sensor read them.
            case .dng, .cameraRaw: return try storedPixels(try RawDeveloper().develop(data, as: .jpeg).data)
            default: throw StudioError(status: 415, "not an image the studio can show")
            }
        } catch let error as StudioError {
            throw error
        } catch {
            throw StudioError(status: 422, "the photo cannot be decoded: \(error)")
        }
    }

    /// The EXIF orientation of a photo's stored pixels (1 without one). A HEIC's is its EXIF's: libheif turns the
    /// primary image as its `irot`/`imir` say, but its depth map and matte stay as coded, as they do in a JPEG.
    static func orientation(of data: Data) -> Int { ExifReader.read(photo: data)?.orientation ?? 1 }

    /// Stored pixels (a photo's, or its depth map's or matte's) turned as the photo's EXIF orientation says.
    static func upright<T>(_ image: Raster<T>, orientation: Int) -> Raster<T> {
        ExifOrientationTransform(exifOrientation: orientation, size: image.size).apply(image)
    }

    /// An untagged JPEG, as displayed, whose longer side is at most `side` pixels — or the original bytes when it
    /// already is a JPEG that small (its orientation tag kept, which browsers apply).
    static func jpeg(_ data: Data, maxSide side: Int) throws -> Data {
        if FileKind.of(data) == .jpeg, let size = try? JPEGDecoder.size(of: data), max(size.width, size.height) <= side { return data }
        let (stored, orientation) = try storedPixels(data)
        return try jpeg(stored, orientation: orientation, maxSide: side)
    }

    /// A video's first frame as players show it (its track's turn applied), as a JPEG whose longer side is at most
    /// `side` pixels: the video's thumbnail and poster. A movie FFmpeg cannot decode is a 422 saying why.
    static func videoJPEG(_ movie: PHAssetResource, maxSide side: Int) throws -> Data {
        let url: URL
        do { url = try PHAssetResourceManager.default().fileURL(for: movie) } catch { throw StudioError(status: 500, "\(error)") }
        let frame: Raster<UInt8>
        do { frame = try MovieFrameDecoder.frame(contentsOf: url) } catch {
            throw StudioError(status: 422, "the video cannot be decoded: \(error)")
        }
        return try jpeg(frame, orientation: 1, maxSide: side)
    }

    /// `stored` scaled so its longer side is at most `side`, turned as `orientation` says, as an untagged JPEG.
    private static func jpeg(_ stored: Raster<UInt8>, orientation: Int, maxSide side: Int) throws -> Data {
        var image = stored
        let longest = max(image.width, image.height)
        if longest > side {
            let scale = Double(side) / Double(longest)
            image = Resampler.downscale(image, to: Size(width: max(1, Int(Double(image.width) * scale)),
                                                        height: max(1, Int(Double(image.height) * scale))))
        }
        // Turned once small: the same picture as turning first, for a fraction of the work.
        return try JPEGEncoder.encode(upright(image, orientation: orientation), quality: 85)
    }

    /// The photo's embedded depth, colourised (near warm, far cool), as PNG, turned as the photo is.
    static func depthPNG(_ data: Data) throws -> Data {
        guard let depth = (try? EmbeddedDepthReader.read(data))?.depth else {
            throw StudioError(status: 404, "the photo carries no depth")
        }
        return try PNGCodec.encode(upright(DepthColorMap.colorized(depth), orientation: orientation(of: data)))
    }

    /// The photo's embedded portrait effects matte, as a grey PNG, turned as the photo is.
    static func mattePNG(_ data: Data) throws -> Data {
        guard let matte = (try? EmbeddedDepthReader.read(data))?.matte else {
            throw StudioError(status: 404, "the photo carries no portrait matte")
        }
        var grey = Raster<UInt8>(width: matte.width, height: matte.height, channels: 3)
        for i in 0..<(matte.width * matte.height) {
            let v = UInt8(min(max(matte.storage[i] * 255, 0), 255).rounded())
            for c in 0..<3 { grey.storage[3 * i + c] = v }
        }
        return try PNGCodec.encode(upright(grey, orientation: orientation(of: data)))
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
