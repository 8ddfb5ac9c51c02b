import CPNG
import CaptureCore
import Foundation

/// PNG reading and writing with libpng's simplified API (which handles libpng's
/// setjmp-based errors internally and reports them as messages).
public enum PNGCodec {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes to 8-bit RGB: palette and gray are expanded, 16-bit samples are reduced to 8, and alpha is dropped (colour
    /// values kept as stored). With `refusingTransparency`, an image with any pixel less than opaque throws
    /// `.unsupported` instead (its dropped alpha would show what was meant to be hidden).
    public static func decode(_ data: Data, refusingTransparency: Bool = false) throws -> Raster<UInt8> {
        try decode(data, transparency: refusingTransparency ? .refused : .ignored)
    }

    /// Decodes to 8-bit RGB, its alpha (a colour type with alpha, or tRNS) handled as `transparency` says.
    public static func decode(_ data: Data, transparency: Transparency) throws -> Raster<UInt8> {
        guard data.count >= 8, data.prefix(8).elementsEqual(signature) else {
            if !data.isEmpty, data.count < 8, signature.starts(with: data) { throw MediaFormatError.truncated }
            throw MediaFormatError.invalidImage("not a PNG (bad signature)")
        }
        var image = png_image()
        image.version = ocp_png_image_version
        let begun = data.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard begun != 0 else { throw failure(&image, decoding: true) }
        defer { png_image_free(&image) }
        let hasAlpha = image.format & ocp_png_format_flag_alpha != 0
        // 16-bit files without gAMA/sRGB are sRGB-encoded in practice; without this flag libpng
        // would treat them as linear and gamma-encode them on the way down to 8 bits.
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        image.format = hasAlpha ? ocp_png_format_rgba : ocp_png_format_rgb
        let width = Int(image.width), height = Int(image.height)
        let channels = hasAlpha ? 4 : 3
        // IHDR's dimensions, checked before any pixel memory is allocated.
        let count = try ImageLimits.check(width: width, height: height, format: "PNG") * channels
        var pixels = [UInt8](repeating: 0, count: count)
        let finished = data.withUnsafeBytes { _ in   // the memory source must stay alive until finish
            pixels.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * channels), nil)
            }
        }
        guard finished != 0 else { throw failure(&image, decoding: true) }
        guard hasAlpha else { return Raster(width: width, height: height, channels: 3, storage: pixels) }
        try transparency.rgb(fromRGBA: &pixels, pixels: width * height, format: "PNG")
        return Raster(width: width, height: height, channels: 3, storage: pixels)
    }

    /// `image` as PNG (8-bit grey, RGB or RGBA) and, with `exif`, its EXIF (orientation, dates, camera) in an `eXIf`
    /// chunk after the header, as PNG's third edition places it (libpng's simplified writer has no chunks of its own).
    public static func encode(_ image: Raster<UInt8>, exif: ExifMetadata?) throws -> Data {
        let png = try encode(image)
        guard let exif else { return png }
        return try inserting(chunk: "eXIf", ExifWriter.tiffData(for: exif), into: png)
    }

    /// `png` with a chunk of `type` holding `body` right after IHDR (its length, type, body and CRC-32, zlib's).
    static func inserting(chunk type: String, _ body: Data, into png: Data) throws -> Data {
        // Signature (8 bytes), then IHDR: length 13, "IHDR", 13 bytes, CRC.
        let afterHeader = 8 + 4 + 4 + 13 + 4
        guard png.count > afterHeader, body.count < Int(Int32.max) else { throw MediaFormatError.invalidImage("PNG too short for a chunk") }
        var chunk = Data()
        withUnsafeBytes(of: UInt32(body.count).bigEndian) { chunk.append(contentsOf: $0) }
        chunk.append(contentsOf: Array(type.utf8))
        chunk.append(body)
        let crc = chunk.dropFirst(4).withUnsafeBytes { bytes in
            UInt32(crc32(0, bytes.bindMemory(to: UInt8.self).baseAddress, UInt32(bytes.count)))
        }
        withUnsafeBytes(of: crc.bigEndian) { chunk.append(contentsOf: $0) }
        var out = Data(png.prefix(afterHeader))
        out.append(chunk)
        out.append(png.dropFirst(afterHeader))
        return out
    }

    /// Encodes 8-bit RGB (3 channels), RGBA (4) or gray (1).
    public static func encode(_ image: Raster<UInt8>) throws -> Data {
        guard image.width > 0, image.height > 0, image.width < 1 << 24, image.height < 1 << 24 else {
            throw MediaFormatError.invalidImage("PNG cannot hold a \(image.width)×\(image.height) image")
        }
        let format: UInt32
        switch image.channels {
        case 1: format = ocp_png_format_gray
        case 3: format = ocp_png_format_rgb
        case 4: format = ocp_png_format_rgba
        default: throw MediaFormatError.unsupported("PNG output with \(image.channels) channels")
        }
        var png = png_image()
        png.version = ocp_png_image_version
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = format
        return try image.storage.withUnsafeBytes { pixels in
            // One pass into a buffer of the most it can need (asking libpng the size first compresses the image twice).
            var size = ocp_png_image_png_size_max(&png)
            var out = Data(count: Int(size))
            let ok = out.withUnsafeMutableBytes { buffer in
                png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, pixels.baseAddress, Int32(image.rowStride), nil)
            }
            guard ok != 0 else { throw failure(&png, decoding: false) }
            out.count = Int(size)
            return out
        }
    }

    private static func failure(_ image: inout png_image, decoding: Bool) -> MediaFormatError {
        let text = JPEGSegments.message(&image.message)
        png_image_free(&image)
        if decoding {
            let lower = text.lowercased()
            if lower.contains("eof") || lower.contains("end of") || lower.contains("truncat") || lower.contains("not enough") {
                return .truncated
            }
            return .decoderFailed(text)
        }
        return .encoderFailed(text)
    }
}
