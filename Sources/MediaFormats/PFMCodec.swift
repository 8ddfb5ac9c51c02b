import CaptureCore
import Foundation

/// Portable Float Map (PFM), the format of Middlebury's disparity maps: a text header
/// `Pf` (1 channel) or `PF` (3 channels), `width height`, and a scale whose sign gives the byte order
/// (negative = little-endian), then 32-bit floats with rows stored bottom to top. Values are kept as
/// they are: Middlebury writes +∞ for unknown disparities, and NaN and ±∞ round-trip unchanged.
public enum PFMCodec {
    /// Encodes a 1- or 3-channel float raster as little-endian PFM (scale −1).
    public static func encode(_ image: Raster<Float>) throws -> Data {
        guard image.channels == 1 || image.channels == 3 else {
            throw MediaFormatError.unsupported("PFM holds 1 or 3 channels, not \(image.channels)")
        }
        try ImageLimits.check(width: image.width, height: image.height, format: "PFM")
        var data = Data("\(image.channels == 1 ? "Pf" : "PF")\n\(image.width) \(image.height)\n-1.0\n".utf8)
        let header = data.count
        let rowValues = image.rowStride
        data.count = header + image.height * rowValues * 4
        data.withUnsafeMutableBytes { raw in
            let out = raw.baseAddress! + header
            image.storage.withUnsafeBufferPointer { src in
                for y in 0..<image.height {
                    let source = src.baseAddress! + (image.height - 1 - y) * rowValues
                    for i in 0..<rowValues {
                        out.storeBytes(of: source[i].bitPattern.littleEndian, toByteOffset: (y * rowValues + i) * 4, as: UInt32.self)
                    }
                }
            }
        }
        return data
    }

    /// Decodes a PFM file of either byte order; the result's rows run top to bottom.
    public static func decode(_ data: Data) throws -> Raster<Float> {
        let bytes = [UInt8](data.prefix(256))
        var position = 0
        /// The next whitespace-separated header token; exactly one whitespace byte ends the last one.
        func token() throws -> String {
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            let start = position
            while position < bytes.count, !isSpace(bytes[position]) { position += 1 }
            guard position < bytes.count, position > start else {
                throw data.count < 256 ? MediaFormatError.truncated : MediaFormatError.invalidImage("PFM header is malformed")
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
        guard data.count >= 2, data.first == UInt8(ascii: "P") else {
            throw data.count == 1 && data.first == UInt8(ascii: "P") ? MediaFormatError.truncated
                : MediaFormatError.invalidImage("not a PFM (no 'Pf' or 'PF' signature)")
        }
        let channels: Int
        switch try token() {
        case "Pf": channels = 1
        case "PF": channels = 3
        default: throw MediaFormatError.invalidImage("not a PFM (no 'Pf' or 'PF' signature)")
        }
        guard let width = Int(try token()), let height = Int(try token()) else {
            throw MediaFormatError.invalidImage("PFM size is not two integers")
        }
        guard let scale = Double(try token()), scale.isFinite, scale != 0 else {
            throw MediaFormatError.invalidImage("PFM scale must be a non-zero number")
        }
        position += 1   // the single whitespace byte after the scale
        let pixels = try ImageLimits.check(width: width, height: height, format: "PFM")
        let (values, o1) = pixels.multipliedReportingOverflow(by: channels)
        let (byteCount, o2) = values.multipliedReportingOverflow(by: 4)
        guard !o1, !o2 else { throw MediaFormatError.unsupported("PFM of \(width)×\(height) is too large") }
        guard data.count - position >= byteCount else { throw MediaFormatError.truncated }
        let littleEndian = scale < 0
        let rowValues = width * channels
        var storage = [Float](repeating: 0, count: values)
        data.withUnsafeBytes { raw in
            let src = raw.baseAddress! + position
            storage.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let row = dst.baseAddress! + (height - 1 - y) * rowValues
                    for i in 0..<rowValues {
                        let bits = src.loadUnaligned(fromByteOffset: (y * rowValues + i) * 4, as: UInt32.self)
                        row[i] = Float(bitPattern: littleEndian ? UInt32(littleEndian: bits) : UInt32(bigEndian: bits))
                    }
                }
            }
        }
        return Raster(width: width, height: height, channels: channels, storage: storage)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
