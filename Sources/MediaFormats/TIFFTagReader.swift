import Foundation

/// Read-only access to the tags of any TIFF-structured file (TIFF, DNG, most camera raws, or the
/// TIFF stream of a JPEG's EXIF): the IFD chain, SubIFDs and typed values, bounds-checked.
/// Used by OpenCapture's file inspector; a thin public face over the EXIF reader's parser.
public struct TIFFTagReader: Sendable {
    /// One image file directory: tag → raw field.
    public struct Directory: Sendable {
        /// Absolute offset of the directory in the stream.
        public let offset: Int
        fileprivate let fields: [UInt16: TIFFParser.Field]
        fileprivate let littleEndian: Bool

        public var tags: [UInt16] { fields.keys.sorted() }
        public func contains(_ tag: UInt16) -> Bool { fields[tag] != nil }

        /// ASCII (or UNDEFINED) text up to the first NUL.
        public func string(_ tag: UInt16) -> String? {
            guard let f = fields[tag], f.type == TIFFType.ascii.rawValue || f.type == TIFFType.undefined.rawValue else { return nil }
            return String(decoding: f.bytes.prefix { $0 != 0 }, as: UTF8.self)
        }

        /// The raw value bytes (as stored, in the file's byte order).
        public func bytes(_ tag: UInt16) -> [UInt8]? { fields[tag]?.bytes }

        /// Every value of an integer field (BYTE, SHORT, LONG, SLONG, UNDEFINED, IFD).
        public func integers(_ tag: UInt16) -> [Int]? {
            guard let f = fields[tag] else { return nil }
            let b = f.bytes
            switch f.type {
            case 1, 7: return b.map { Int($0) }
            case 6: return b.map { Int(Int8(bitPattern: $0)) }
            case 3: return (0..<f.count).map { Int(u16(b, 2 * $0)) }
            case 8: return (0..<f.count).map { Int(Int16(bitPattern: u16(b, 2 * $0))) }
            case 4, 13: return (0..<f.count).map { Int(u32(b, 4 * $0)) }
            case 9: return (0..<f.count).map { Int(Int32(bitPattern: u32(b, 4 * $0))) }
            default: return nil
            }
        }

        public func integer(_ tag: UInt16) -> Int? { integers(tag)?.first }

        /// Every value of a numeric field as Double (integers, rationals, floats).
        public func reals(_ tag: UInt16) -> [Double]? {
            guard let f = fields[tag] else { return nil }
            let b = f.bytes
            switch f.type {
            case 5: return (0..<f.count).map { k in
                let d = u32(b, 8 * k + 4)
                return d == 0 ? 0 : Double(u32(b, 8 * k)) / Double(d)
            }
            case 10: return (0..<f.count).map { k in
                let d = Int32(bitPattern: u32(b, 8 * k + 4))
                return d == 0 ? 0 : Double(Int32(bitPattern: u32(b, 8 * k))) / Double(d)
            }
            case 11: return (0..<f.count).map { Double(Float(bitPattern: u32(b, 4 * $0))) }
            case 12: return (0..<f.count).map { k in
                let lo = UInt64(u32(b, 8 * k)), hi = UInt64(u32(b, 8 * k + 4))
                return Double(bitPattern: littleEndian ? lo | hi << 32 : lo << 32 | hi)
            }
            default: return integers(tag)?.map(Double.init)
            }
        }

        public func real(_ tag: UInt16) -> Double? { reals(tag)?.first }

        private func u16(_ b: [UInt8], _ o: Int) -> UInt16 {
            let x = UInt16(b[o]), y = UInt16(b[o + 1])
            return littleEndian ? x | y << 8 : x << 8 | y
        }

        private func u32(_ b: [UInt8], _ o: Int) -> UInt32 {
            let x = UInt32(u16(b, o)), y = UInt32(u16(b, o + 2))
            return littleEndian ? x | y << 16 : x << 16 | y
        }
    }

    private let parser: TIFFParser

    /// Parses the header; throws `MediaFormatError` for anything that is not a TIFF stream.
    public init(_ data: Data) throws {
        parser = try TIFFParser([UInt8](data))
    }

    public var isLittleEndian: Bool { parser.littleEndian }

    /// The directory at `offset`.
    public func directory(at offset: Int) throws -> Directory {
        Directory(offset: offset, fields: try parser.directory(at: offset), littleEndian: parser.littleEndian)
    }

    /// The main IFD chain (IFD0, IFD1, …), at most `limit` long and never looping.
    public func mainDirectories(limit: Int = 16) throws -> [Directory] {
        var result: [Directory] = []
        var offset = parser.firstIFDOffset
        var seen: Set<Int> = []
        while offset != 0, result.count < limit, seen.insert(offset).inserted {
            result.append(try directory(at: offset))
            guard let next = parser.nextIFDOffset(after: offset) else { break }
            offset = next
        }
        return result
    }

    /// The SubIFDs (tag 330) of `directory` that can be read.
    public func subDirectories(of directory: Directory) -> [Directory] {
        (directory.integers(330) ?? []).compactMap { try? self.directory(at: $0) }
    }
}
