import Foundation

/// The one bounds-checked reader of integers and byte runs in file data, in either byte order.
/// Every read checks its offset and length against the bytes first and throws
/// `MediaFormatError.truncated` instead of trapping; offsets are absolute (0 = first byte).
public struct ByteReader: Sendable {
    /// The bytes read, indexed from 0.
    public let bytes: [UInt8]
    public var byteOrder: ByteOrder

    public init(_ bytes: [UInt8], byteOrder: ByteOrder = .bigEndian) {
        self.bytes = bytes
        self.byteOrder = byteOrder
    }

    public init(_ data: Data, byteOrder: ByteOrder = .bigEndian) {
        self.init([UInt8](data), byteOrder: byteOrder)
    }

    public var count: Int { bytes.count }

    /// Whether `length` bytes at `offset` lie inside the data (false on negative or overflowing values).
    public func contains(_ offset: Int, _ length: Int) -> Bool {
        guard offset >= 0, length >= 0 else { return false }
        let (end, overflow) = offset.addingReportingOverflow(length)
        return !overflow && end <= bytes.count
    }

    /// Throws `.truncated` unless `length` bytes at `offset` are inside the data.
    public func require(_ offset: Int, _ length: Int) throws {
        guard contains(offset, length) else { throw MediaFormatError.truncated }
    }

    public func u8(_ offset: Int) throws -> UInt8 {
        try require(offset, 1)
        return bytes[offset]
    }

    public func u16(_ offset: Int) throws -> UInt16 {
        try require(offset, 2)
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return byteOrder == .littleEndian ? a | b << 8 : a << 8 | b
    }

    public func u32(_ offset: Int) throws -> UInt32 {
        try require(offset, 4)
        var v: UInt32 = 0
        for k in 0..<4 {
            let byte = UInt32(bytes[offset + k])
            v |= byteOrder == .littleEndian ? byte << (8 * k) : byte << (8 * (3 - k))
        }
        return v
    }

    public func u64(_ offset: Int) throws -> UInt64 {
        let a = UInt64(try u32(offset)), b = UInt64(try u32(offset + 4))
        return byteOrder == .littleEndian ? a | b << 32 : a << 32 | b
    }

    /// An unsigned integer of 0, 1, 2, 4 or 8 bytes (ISO BMFF's variable-width `iloc` fields).
    public func unsigned(_ offset: Int, size: Int) throws -> UInt64 {
        switch size {
        case 0: return 0
        case 1: return UInt64(try u8(offset))
        case 2: return UInt64(try u16(offset))
        case 4: return UInt64(try u32(offset))
        case 8: return try u64(offset)
        default: throw MediaFormatError.invalidImage("field width of \(size) bytes")
        }
    }

    /// `length` bytes at `offset`.
    public func slice(_ offset: Int, _ length: Int) throws -> ArraySlice<UInt8> {
        try require(offset, length)
        return bytes[offset..<(offset + length)]
    }

    /// Four bytes as text (an ISO BMFF box type or brand, a PNG chunk type).
    public func fourCC(_ offset: Int) throws -> String {
        String(decoding: try slice(offset, 4), as: UTF8.self)
    }

    /// Whether the bytes at `offset` are `prefix`.
    public func matches(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
        contains(offset, prefix.count) && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }
}
