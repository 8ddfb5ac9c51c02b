import CHEIF
import CaptureCore
import Foundation

/// HEIF/HEIC reading through libheif (grids, `irot`/`imir` and colour conversion included).
public enum HEIFDecoder {
    /// Decodes the primary image to 8-bit interleaved RGB, as displayed (transformations applied), or
    /// as coded (`applyingTransformations` false: without `irot`/`imir`, in the geometry its auxiliary
    /// depth and matte images share). The file's box structure is parsed first: truncated files and
    /// primary images over `ImageLimits` are refused before libheif allocates anything.
    /// An alpha plane is handled as `transparency` says: dropped by default, as a JPEG-minded reader drops it.
    public static func decode(_ data: Data, applyingTransformations: Bool = true, transparency: Transparency = .ignored) throws -> Raster<UInt8> {
        try HEIFStructure.parse(data).checkDecodable()
        return try withPrimaryImage(data) { _, handle in
            var image: OpaquePointer?
            let options = heif_decoding_options_alloc()
            defer { heif_decoding_options_free(options) }
            options?.pointee.ignore_transformations = applyingTransformations ? 0 : 1
            let alpha = transparency != .ignored && heif_image_handle_has_alpha_channel(handle) != 0
            try check(heif_decode_image(handle, &image, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                        options))
            guard let image else { throw MediaFormatError.decoderFailed("libheif returned no image") }
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_width(image, heif_channel_interleaved))
            let height = Int(heif_image_get_height(image, heif_channel_interleaved))
            var stride: Int32 = 0
            try ImageLimits.check(width: width, height: height, format: "HEIF image")
            let channels = alpha ? 4 : 3
            guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
                  Int(stride) >= width * channels else {
                throw MediaFormatError.decoderFailed("libheif returned no RGB plane")
            }
            var storage = [UInt8](repeating: 0, count: width * height * channels)
            storage.withUnsafeMutableBytes { out in
                for y in 0..<height {
                    memcpy(out.baseAddress! + y * width * channels, plane + y * Int(stride), width * channels)
                }
            }
            if alpha {
                if heif_image_is_premultiplied_alpha(image) != 0 { unpremultiply(&storage) }
                try transparency.rgb(fromRGBA: &storage, pixels: width * height, format: "HEIF image")
            }
            return Raster(width: width, height: height, channels: 3, storage: storage)
        }
    }

    /// Premultiplied RGBA made straight (a colour over alpha 0 stays 0).
    private static func unpremultiply(_ rgba: inout [UInt8]) {
        for p in stride(from: 0, to: rgba.count, by: 4) {
            let a = Int(rgba[p + 3])
            guard a > 0, a < 255 else { continue }
            for c in 0..<3 { rgba[p + c] = UInt8(min(255, (Int(rgba[p + c]) * 255 + a / 2) / a)) }
        }
    }

    /// Primary size, thumbnail, metadata items and colour profile of a HEIF file. For the
    /// EXIF and ICC bytes themselves, use `HEIFStructure.parse`.
    public static func info(_ data: Data) throws -> HEIFInfo {
        let structure = try HEIFStructure.parse(data)
        return try withPrimaryImage(data) { _, handle in
            var thumbnail: Size?
            var thumbnailID: heif_item_id = 0
            if heif_image_handle_get_list_of_thumbnail_IDs(handle, &thumbnailID, 1) == 1 {
                var th: OpaquePointer?
                try check(heif_image_handle_get_thumbnail(handle, thumbnailID, &th))
                if let th {
                    thumbnail = Size(width: Int(heif_image_handle_get_width(th)), height: Int(heif_image_handle_get_height(th)))
                    heif_image_handle_release(th)
                }
            }
            let hasExif = heif_image_handle_get_number_of_metadata_blocks(handle, "Exif") > 0
            var hasXMP = false
            let mimeCount = heif_image_handle_get_number_of_metadata_blocks(handle, "mime")
            if mimeCount > 0 {
                var ids = [heif_item_id](repeating: 0, count: Int(mimeCount))
                let n = heif_image_handle_get_list_of_metadata_block_IDs(handle, "mime", &ids, mimeCount)
                hasXMP = ids.prefix(Int(n)).contains {
                    heif_image_handle_get_metadata_content_type(handle, $0).map { String(cString: $0) } == "application/rdf+xml"
                }
            }
            let type = heif_image_handle_get_color_profile_type(handle)
            var profileType: String?
            var description: String?
            if type != heif_color_profile_type_not_present {
                let code = type.rawValue
                profileType = String(decoding: [24, 16, 8, 0].map { UInt8((code >> $0) & 0xFF) }, as: UTF8.self)
                let size = heif_image_handle_get_raw_color_profile_size(handle)
                if size > 0 {
                    var icc = Data(count: size)
                    let err = icc.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
                    if err.code == heif_error_Ok { description = ICCProfile.description(of: icc) }
                }
            }
            var primaries: Int?
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            if heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
                primaries = Int(nclx.pointee.color_primaries.rawValue)
                heif_nclx_color_profile_free(nclx)
            }
            return HEIFInfo(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)),
                            primaryItemType: structure.primary.type, thumbnailSize: thumbnail, hasExif: hasExif, hasXMP: hasXMP,
                            colorProfileType: profileType, colorProfileDescription: description, colorPrimaries: primaries,
                            itemCount: structure.items.count)
        }
    }

    /// Runs `body` with libheif's context and primary image handle for `data`.
    private static func withPrimaryImage<T>(_ data: Data, _ body: (OpaquePointer, OpaquePointer) throws -> T) throws -> T {
        guard data.count >= 12 else { throw MediaFormatError.invalidImage("too short for a HEIF file") }
        guard let context = heif_context_alloc() else { throw MediaFormatError.decoderFailed("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        return try data.withUnsafeBytes { bytes in
            do {
                try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
            } catch MediaFormatError.decoderFailed(let message) {
                throw MediaFormatError.invalidImage(message)
            }
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle))
            guard let handle else { throw MediaFormatError.invalidImage("no primary image") }
            defer { heif_image_handle_release(handle) }
            return try body(context, handle)
        }
    }

    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        throw MediaFormatError.decoderFailed(message)
    }
}
