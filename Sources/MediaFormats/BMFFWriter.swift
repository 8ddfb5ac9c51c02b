import Foundation

/// Writes ISO base media file format (ISO/IEC 14496-12) boxes: big-endian fields and nested
/// boxes whose 32-bit sizes are patched when the box closes. Used by the HEIF writer for the
/// parts libheif 1.15 cannot write (grid and auxiliary items).
struct BMFFWriter {
    private(set) var bytes: [UInt8] = []

    init() {}

    var count: Int { bytes.count }
    var data: Data { Data(bytes) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u32(_ v: UInt32) { bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    mutating func append(_ other: [UInt8]) { bytes += other }
    mutating func append(_ other: Data) { bytes += other }

    /// A four-character code; `code` must be exactly four ASCII characters.
    mutating func fourCC(_ code: String) {
        let b = Array(code.utf8)
        precondition(b.count == 4, "four-character code '\(code)' is not four bytes")
        bytes += b
    }

    /// A UTF-8 string followed by its NUL terminator.
    mutating func cString(_ s: String) { bytes += Array(s.utf8) + [0] }

    /// A box: 32-bit size, type, then whatever `body` writes.
    mutating func box(_ type: String, _ body: (inout BMFFWriter) throws -> Void) rethrows {
        let start = bytes.count
        u32(0)
        fourCC(type)
        try body(&self)
        patchSize(at: start)
    }

    /// A full box: a box whose body starts with an 8-bit version and 24-bit flags.
    mutating func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0,
                          _ body: (inout BMFFWriter) throws -> Void) rethrows {
        try box(type) { w in
            w.u32(UInt32(version) << 24 | (flags & 0xFF_FFFF))
            try body(&w)
        }
    }

    /// The bytes of a single box, for property boxes collected before their container is written.
    static func box(_ type: String, _ body: (inout BMFFWriter) throws -> Void) rethrows -> [UInt8] {
        var w = BMFFWriter()
        try w.box(type, body)
        return w.bytes
    }

    /// The bytes of a single full box.
    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0,
                        _ body: (inout BMFFWriter) throws -> Void) rethrows -> [UInt8] {
        var w = BMFFWriter()
        try w.fullBox(type, version: version, flags: flags, body)
        return w.bytes
    }

    private mutating func patchSize(at start: Int) {
        let size = bytes.count - start
        precondition(size <= Int(UInt32.max), "box larger than 4 GiB")
        let s = UInt32(size)
        bytes[start] = UInt8(s >> 24)
        bytes[start + 1] = UInt8((s >> 16) & 0xFF)
        bytes[start + 2] = UInt8((s >> 8) & 0xFF)
        bytes[start + 3] = UInt8(s & 0xFF)
    }
}
