import CHEIF
import CaptureCore
import Foundation

/// Reads the depth map and portrait matte embedded in a HEIC (auxiliary images, decoded by
/// libheif: `heif_image_handle_get_depth_image_handle` for depth, the auxiliary-image handles for
/// the matte; their XMP from the file's boxes, `HEIFStructure`) or a JPEG (MPF secondary images).
/// Bad input throws `MediaFormatError`; stored sizes are checked against `ImageLimits` before any
/// pixels are decoded.
public enum EmbeddedDepthReader {
    public static func read(_ data: Data) throws -> EmbeddedDepth {
        switch FileKind.of(data) {
        case .heif: return try heif(data)
        case .jpeg: return try jpeg(data)
        default: throw MediaFormatError.invalidImage("embedded depth is read from HEIC and JPEG files only")
        }
    }

    /// The depth map's and matte's sizes and XMP, from the file's structure only: HEIC boxes
    /// (`HEIFStructure`) or the JPEG's MPF index and each secondary image's header and APP1.
    public static func describe(_ data: Data) throws -> EmbeddedDepthDescription {
        var result = EmbeddedDepthDescription()
        switch FileKind.of(data) {
        case .heif:
            let structure = try HEIFStructure.parse(data)
            if let aux = structure.auxiliaryImages.first(where: { depthURNs.contains($0.type) }) {
                result.depthSize = aux.item.width.flatMap { w in aux.item.height.map { Size(width: w, height: $0) } }
                result.depthMetadata = try depthMetadata(aux)
            }
            if let aux = structure.auxiliaryImages.first(where: { $0.type == HEIFEncoder.portraitEffectsMatteURN }) {
                result.matteSize = aux.item.width.flatMap { w in aux.item.height.map { Size(width: w, height: $0) } }
                result.matteMetadata = try aux.xmp.map { try DepthXMP.parse(Data($0)) }
            }
        case .jpeg:
            guard let index = try MultiPictureIndex.read(jpeg: data) else { return result }
            for image in index.images(in: data).dropFirst() {
                guard let xmp = try xmpPacket(in: image) else { continue }
                let metadata = try DepthXMP.parse(xmp)
                if metadata.isPortraitEffectsMatte, result.matteMetadata == nil {
                    result.matteSize = try JPEGDecoder.size(of: image)
                    result.matteMetadata = metadata
                } else if metadata.depthKind != nil, result.depthMetadata == nil {
                    result.depthSize = try JPEGDecoder.size(of: image)
                    result.depthMetadata = metadata
                }
            }
        default:
            throw MediaFormatError.invalidImage("embedded depth is read from HEIC and JPEG files only")
        }
        return result
    }

    // MARK: - HEIC

    /// auxC URNs of a depth map (HEVC and MIAF).
    static let depthURNs: Set<String> = [HEIFEncoder.depthAuxiliaryURN, "urn:mpeg:mpegB:cicp:systems:auxiliary:depth"]

    private static func heif(_ data: Data) throws -> EmbeddedDepth {
        let structure = try HEIFStructure.parse(data)
        let depthItem = structure.auxiliaryImages.first { depthURNs.contains($0.type) }
        let matteItem = structure.auxiliaryImages.first { $0.type == HEIFEncoder.portraitEffectsMatteURN }
        var result = EmbeddedDepth()
        guard depthItem != nil || matteItem != nil else { return result }
        for aux in [depthItem, matteItem].compactMap({ $0 }) {
            guard let w = aux.item.width, let h = aux.item.height else {
                throw MediaFormatError.invalidImage("HEIF auxiliary item \(aux.item.id) has no ispe")
            }
            try ImageLimits.check(width: w, height: h, format: "HEIF auxiliary image")
        }
        guard let context = heif_context_alloc() else { throw MediaFormatError.decoderFailed("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        try data.withUnsafeBytes { bytes in
            do {
                try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
            } catch MediaFormatError.decoderFailed(let message) {
                throw MediaFormatError.invalidImage(message)
            }
            var primary: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &primary))
            guard let primary else { throw MediaFormatError.invalidImage("no primary image") }
            defer { heif_image_handle_release(primary) }

            if let depthItem {
                let metadata = try depthMetadata(depthItem)
                let count = heif_image_handle_get_number_of_depth_images(primary)
                var ids = [heif_item_id](repeating: 0, count: Int(max(0, count)))
                let n = Int(heif_image_handle_get_list_of_depth_image_IDs(primary, &ids, count))
                guard let id = ids.prefix(n).first(where: { $0 == depthItem.item.id }) ?? ids.prefix(n).first else {
                    throw MediaFormatError.invalidImage("libheif finds no depth image for item \(depthItem.item.id)")
                }
                var handle: OpaquePointer?
                try check(heif_image_handle_get_depth_image_handle(primary, id, &handle))
                guard let handle else { throw MediaFormatError.decoderFailed("libheif returned no depth handle") }
                defer { heif_image_handle_release(handle) }
                let codes = try decodeGray(handle, expected: depthItem.item)
                result.depth = try DepthAuxiliaryImage.decoded(codes: codes, metadata: metadata)
                result.depthMetadata = metadata
            }
            if let matteItem {
                var handle: OpaquePointer?
                try check(heif_image_handle_get_auxiliary_image_handle(primary, matteItem.item.id, &handle))
                guard let handle else { throw MediaFormatError.decoderFailed("libheif returned no matte handle") }
                defer { heif_image_handle_release(handle) }
                result.matte = MatteAuxiliaryImage.decoded(codes: try decodeGray(handle, expected: matteItem.item))
                result.matteMetadata = try matteItem.xmp.map { try DepthXMP.parse(Data($0)) }
            }
        }
        return result
    }

    /// The depth item's XMP, or without one the range from its depth representation SEI.
    private static func depthMetadata(_ aux: HEIFAuxiliaryImage) throws -> AuxiliaryImageMetadata {
        if let xmp = aux.xmp { return try DepthXMP.parse(Data(xmp)) }
        guard let sei = DepthRepresentationInfo(auxCSubtype: aux.subtype) else {
            throw MediaFormatError.invalidMetadata("HEIF depth item \(aux.item.id) has neither XMP nor a depth representation SEI")
        }
        var m = AuxiliaryImageMetadata(storedFormat: .oneComponent8, intMinValue: 0, intMaxValue: 255, isFiltered: true)
        switch sei.type {
        case .uniformDisparity:
            m.auxiliaryImageType = "disparity"
            m.floatMinValue = sei.dMin.map(Float.init)
            m.floatMaxValue = sei.dMax.map(Float.init)
        case .uniformZ:
            m.auxiliaryImageType = "depth"
            m.floatMinValue = sei.zNear.map(Float.init)
            m.floatMaxValue = sei.zFar.map(Float.init)
        default:
            throw MediaFormatError.unsupported("depth representation type \(sei.type.rawValue)")
        }
        return m
    }

    /// Decodes an auxiliary handle to its 8-bit luma codes as coded (its `irot`/`imir`, the photo's, are the
    /// orientation tag's business, as for `AVDepthData`); the size must match the item's `ispe`.
    private static func decodeGray(_ handle: OpaquePointer, expected item: HEIFItem) throws -> Raster<UInt8> {
        var image: OpaquePointer?
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        options?.pointee.ignore_transformations = 1
        try check(heif_decode_image(handle, &image, heif_colorspace_monochrome, heif_chroma_monochrome, options))
        guard let image else { throw MediaFormatError.decoderFailed("libheif returned no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_Y)), height = Int(heif_image_get_height(image, heif_channel_Y))
        guard width == item.width, height == item.height else {
            throw MediaFormatError.invalidImage("auxiliary item \(item.id) decodes to \(width)×\(height), not its ispe size")
        }
        try ImageLimits.check(width: width, height: height, format: "HEIF auxiliary image")
        guard heif_image_get_bits_per_pixel_range(image, heif_channel_Y) == 8 else {
            throw MediaFormatError.unsupported("auxiliary image of more than 8 bits")
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride), Int(stride) >= width else {
            throw MediaFormatError.decoderFailed("libheif returned no luma plane")
        }
        var codes = Raster<UInt8>(width: width, height: height, channels: 1, repeating: 0)
        codes.storage.withUnsafeMutableBytes { out in
            for y in 0..<height { memcpy(out.baseAddress! + y * width, plane + y * Int(stride), width) }
        }
        return codes
    }

    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw MediaFormatError.decoderFailed(error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }

    // MARK: - JPEG

    private static func jpeg(_ data: Data) throws -> EmbeddedDepth {
        var result = EmbeddedDepth()
        guard let index = try MultiPictureIndex.read(jpeg: data) else { return result }
        for image in index.images(in: data).dropFirst() {
            guard let xmp = try xmpPacket(in: image) else { continue }
            let metadata = try DepthXMP.parse(xmp)
            if metadata.isPortraitEffectsMatte, result.matte == nil {
                result.matte = MatteAuxiliaryImage.decoded(codes: try JPEGDecoder.decode(image))
                result.matteMetadata = metadata
            } else if metadata.depthKind != nil, result.depth == nil {
                result.depth = try DepthAuxiliaryImage.decoded(codes: try JPEGDecoder.decode(image), metadata: metadata)
                result.depthMetadata = metadata
            }
        }
        return result
    }

    /// The XMP packet of a JPEG's first APP1 "http://ns.adobe.com/xap/1.0/" segment.
    static func xmpPacket(in jpeg: Data) throws -> Data? {
        let b = [UInt8](jpeg)
        let signature = JPEGEncoder.xmpSignature
        for s in try JPEGSegments.segments(in: b) where s.marker == 0xE1 && b[s.payload].starts(with: signature) {
            return Data(b[(s.payload.lowerBound + signature.count)..<s.payload.upperBound])
        }
        return nil
    }
}
