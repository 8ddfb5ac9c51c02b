import Foundation

/// Hand-assembled single-IFD TIFF streams in either byte order, with values of any field type
/// (given as bytes already in the stream's order), for testing the tag readers.
struct TIFFBuilder {
    let littleEndian: Bool
    private var entries: [(tag: UInt16, type: UInt16, count: UInt32, bytes: [UInt8])] = []

    init(littleEndian: Bool) { self.littleEndian = littleEndian }

    func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let be = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return littleEndian ? be.reversed() : be
    }
    func u64(_ v: UInt64) -> [UInt8] {
        littleEndian ? u32(UInt32(v & 0xFFFF_FFFF)) + u32(UInt32(v >> 32)) : u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF))
    }

    /// Adds a field; `count` defaults to the bytes divided by the type's size.
    mutating func add(_ tag: UInt16, type: UInt16, count: UInt32? = nil, _ bytes: [UInt8]) {
        let size = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4][Int(type)] ?? 1
        entries.append((tag, type, count ?? UInt32(bytes.count / size), bytes))
    }

    /// Removes every field with `tag` (to replace one: remove, then add).
    mutating func remove(_ tag: UInt16) { entries.removeAll { $0.tag == tag } }

    var data: Data {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var out: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        var values: [UInt8] = []
        let valueStart = 8 + 2 + 12 * sorted.count + 4
        out += u16(UInt16(sorted.count))
        for e in sorted {
            out += u16(e.tag) + u16(e.type) + u32(e.count)
            if e.bytes.count <= 4 {
                out += e.bytes + [UInt8](repeating: 0, count: 4 - e.bytes.count)
            } else {
                out += u32(UInt32(valueStart + values.count))
                values += e.bytes
                if values.count & 1 == 1 { values.append(0) }
            }
        }
        out += u32(0)
        return Data(out + values)
    }
}
