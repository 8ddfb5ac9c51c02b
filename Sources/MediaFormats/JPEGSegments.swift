import Foundation

/// Small helpers on JPEG marker segments.
enum JPEGSegments {
    /// A copy of `jpeg` without APPn and COM segments, as EXIF requires of IFD1 thumbnails.
    static func strippingMetadata(_ jpeg: Data) throws -> Data {
        let b = [UInt8](jpeg)
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { throw MediaFormatError.invalidImage("thumbnail is not a JPEG") }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(b.count)
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { throw MediaFormatError.invalidImage("bad marker in thumbnail") }
            let marker = b[i + 1]
            if marker == 0xDA {   // start of scan: the rest is entropy-coded data up to EOI
                out += b[i...]
                return Data(out)
            }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { throw MediaFormatError.truncated }
            if !((0xE0...0xEF).contains(marker) || marker == 0xFE) {
                out += b[i..<(i + 2 + length)]
            }
            i += 2 + length
        }
        throw MediaFormatError.truncated
    }

    /// A Swift string from a fixed-size C char array (libjpeg's message buffers).
    static func message<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
