/// A zlib stream holding bytes in stored (uncompressed) deflate blocks — header, blocks of up to 65,535 bytes,
/// Adler-32 — for tests that hand-assemble PNG chunks (IDAT, iCCP) without a compression library.
public enum StoredZlib {
    /// The stream for `bytes`.
    public static func stream(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset), last: UInt8 = offset + count == bytes.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
    }
}
