import CJPEG
import CaptureCore
import Foundation

/// JPEG decoding with libjpeg-turbo. Corrupt or truncated data throws: libjpeg's
/// corrupt-data warnings (premature end, bad Huffman code, lost sync) are treated as errors
/// rather than silently grey-filled; benign warnings (extraneous bytes) are tolerated.
public enum JPEGDecoder {
    /// Decodes to 3-channel 8-bit RGB (grayscale JPEGs are expanded). A CMYK or YCCK JPEG (a print workflow's, or
    /// ImageMagick's `-colorspace CMYK`) is read as CMYK through libjpeg-turbo — which turns YCCK into CMYK — and shown
    /// as browsers, ImageMagick and Pillow show one without an ICC profile: R = 255·(1 − C)(1 − K), and so on, the
    /// values taken as inverted (R = C·K / 255) when Adobe's APP14 marker is there, as Photoshop writes them.
    public static func decode(_ data: Data) throws -> Raster<UInt8> {
        try withDecoder(data) { decoder in
            let cs = decoder.pointee.cinfo.jpeg_color_space
            let cmyk = cs == JCS_CMYK || cs == JCS_YCCK
            // The frame header's dimensions, checked before libjpeg allocates anything for the scan.
            try ImageLimits.check(width: Int(decoder.pointee.cinfo.image_width), height: Int(decoder.pointee.cinfo.image_height),
                                  format: "JPEG")
            guard (cmyk ? ocj_decoder_start_cmyk(decoder) : ocj_decoder_start_rgb(decoder)) == 0 else { throw error(decoder) }
            let width = Int(decoder.pointee.cinfo.output_width)
            let height = Int(decoder.pointee.cinfo.output_height)
            let pixels = try ImageLimits.check(width: width, height: height, format: "JPEG")
            let channels = cmyk ? 4 : 3
            var status: Int32 = 0
            var storage = [UInt8](unsafeUninitializedCapacity: pixels * channels) { buffer, initialized in
                status = ocj_decoder_read_all(decoder, buffer.baseAddress, width * channels)
                if status == 0 {
                    initialized = pixels * channels
                } else {
                    initialized = 0
                }
            }
            guard status == 0 else { throw error(decoder) }
            if decoder.pointee.err.corrupt_warnings > 0 { throw error(decoder) }
            if cmyk { rgb(fromCMYK: &storage, pixels: pixels, inverted: decoder.pointee.cinfo.saw_Adobe_marker != 0) }
            return Raster(width: width, height: height, channels: 3, storage: storage)
        }
    }

    /// Interleaved CMYK turned into RGB in place (the first `3 · pixels` bytes), then cut to them: the conversion
    /// browsers make without an ICC profile. `inverted`: the values are stored as 255 − ink (Adobe's APP14 convention).
    static func rgb(fromCMYK storage: inout [UInt8], pixels: Int, inverted: Bool) {
        storage.withUnsafeMutableBufferPointer { buffer in
            // Forward in place: pixel p's four bytes are read before its three, which end at or before them, are written.
            for p in 0..<pixels {
                var c = Int(buffer[4 * p]), m = Int(buffer[4 * p + 1]), y = Int(buffer[4 * p + 2]), k = Int(buffer[4 * p + 3])
                if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
                // Here each value is 255 − ink: R = 255·(1 − C)(1 − K) = c·k / 255, rounded.
                buffer[3 * p] = UInt8((c * k + 127) / 255)
                buffer[3 * p + 1] = UInt8((m * k + 127) / 255)
                buffer[3 * p + 2] = UInt8((y * k + 127) / 255)
            }
        }
        storage.removeLast(pixels)
    }

    /// The image dimensions, from the header only.
    public static func size(of data: Data) throws -> Size {
        try withDecoder(data) { decoder in
            Size(width: Int(decoder.pointee.cinfo.image_width), height: Int(decoder.pointee.cinfo.image_height))
        }
    }

    /// The frame header: size, progressive or not, components, RGB or YCbCr, and chroma sampling (libjpeg reads only
    /// the headers).
    public static func header(of data: Data) throws -> JPEGHeader {
        try withDecoder(data) { decoder in
            let info = decoder.pointee.cinfo
            let components = Int(info.num_components)
            let factors = info.comp_info.map { c in (0..<components).map { SIMD2(Int(c[$0].h_samp_factor), Int(c[$0].v_samp_factor)) } }
            return JPEGHeader(size: Size(width: Int(info.image_width), height: Int(info.image_height)),
                              isProgressive: info.progressive_mode != 0, components: components,
                              storesRGB: info.jpeg_color_space == JCS_RGB, chromaSampling: factors.flatMap(JPEGHeader.samplingRatio),
                              isArithmetic: info.arith_code != 0)
        }
    }

    private static func withDecoder<T>(_ data: Data, _ body: (UnsafeMutablePointer<ocj_decoder>) throws -> T) throws -> T {
        guard data.count >= 4, data[data.startIndex] == 0xFF, data[data.startIndex + 1] == 0xD8 else {
            throw data.count < 4 && data.starts(with: [0xFF, 0xD8].prefix(data.count)) && !data.isEmpty
                ? MediaFormatError.truncated : MediaFormatError.invalidImage("not a JPEG (no SOI marker)")
        }
        let decoder = UnsafeMutablePointer<ocj_decoder>.allocate(capacity: 1)
        decoder.initialize(to: ocj_decoder())
        defer {
            ocj_decoder_destroy(decoder)
            decoder.deallocate()
        }
        return try data.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            guard ocj_decoder_open(decoder, base, UInt(raw.count)) == 0 else { throw error(decoder) }
            return try body(decoder)
        }
    }

    /// Maps libjpeg's failure (or first warning) to a typed error.
    private static func error(_ decoder: UnsafeMutablePointer<ocj_decoder>) -> MediaFormatError {
        let warning = decoder.pointee.err.first_warning_code
        if warning >= 0, ocj_is_truncation_warning(warning) != 0 { return .truncated }
        if decoder.pointee.err.message.0 != 0 {
            return .decoderFailed(JPEGSegments.message(&decoder.pointee.err.message))
        }
        return .decoderFailed(JPEGSegments.message(&decoder.pointee.err.warning))
    }
}
