import Foundation
import OpenCaptureTestSupport

/// Hand-assembled PNG files (stored deflate blocks: `StoredZlib`) for formats
/// PNGCodec.encode does not write: 16-bit, palette.
enum RawPNG {
    static func make(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8,
                     rows: [[UInt8]], palette: [UInt8]? = nil) -> Data {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [bitDepth, colorType, 0, 0, 0])
        if let palette { out += chunk("PLTE", palette) }
        let raw: [UInt8] = rows.flatMap { row -> [UInt8] in [0] + row }   // filter type 0 per row
        out += chunk("IDAT", StoredZlib.stream(raw))
        out += chunk("IEND", [])
        return Data(out)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
}
