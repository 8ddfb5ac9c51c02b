import Foundation

/// Read-only access to the tags of any TIFF-structured file (TIFF, DNG, most camera raws, or the
/// TIFF stream of a JPEG's EXIF): the IFD chain, SubIFDs and typed values, bounds-checked.
/// Values of every TIFF type (BYTE … DOUBLE and IFD) are decoded by the same code the EXIF reader uses.
public struct TIFFTagReader: Sendable {
    /// One image file directory: tag → field.
    public struct Directory: Sendable {
        /// Absolute offset of the directory in the stream.
        public let offset: Int
        let fields: [UInt16: TIFFField]

        public var tags: [UInt16] { fields.keys.sorted() }
        public func contains(_ tag: UInt16) -> Bool { fields[tag] != nil }

        /// The field type number (1 BYTE … 13 IFD) of `tag`.
        public func type(_ tag: UInt16) -> Int? { fields[tag].map { Int($0.type.rawValue) } }

        /// The number of values of `tag`.
        public func count(_ tag: UInt16) -> Int? { fields[tag]?.count }

        /// ASCII (or UNDEFINED) text up to the first NUL.
        public func string(_ tag: UInt16) -> String? { fields[tag]?.string }

        /// The raw value bytes (as stored, in the file's byte order).
        public func bytes(_ tag: UInt16) -> [UInt8]? { fields[tag]?.bytes }

        /// Every value of an integer field (BYTE, SBYTE, SHORT, SSHORT, LONG, SLONG, UNDEFINED, IFD).
        public func integers(_ tag: UInt16) -> [Int]? { fields[tag]?.integers }

        public func integer(_ tag: UInt16) -> Int? { integers(tag)?.first }

        /// Every value of a numeric field as Double (integers, rationals, FLOAT, DOUBLE).
        public func reals(_ tag: UInt16) -> [Double]? { fields[tag]?.reals }

        public func real(_ tag: UInt16) -> Double? { reals(tag)?.first }
    }

    let parser: TIFFParser

    /// Parses the header; throws `MediaFormatError` for anything that is not a TIFF stream. With `anyMagic`, any
    /// number may follow the byte order (camera raws built on TIFF use their own).
    public init(_ data: Data, anyMagic: Bool = false) throws {
        try self.init(bytes: [UInt8](data), anyMagic: anyMagic)
    }

    /// The same from bytes already in an array (shared, not copied).
    public init(bytes: [UInt8], anyMagic: Bool = false) throws {
        parser = try TIFFParser(bytes, anyMagic: anyMagic)
    }

    /// Whether a raw decoder reads `bytes` as TIFF structure: it starts with a byte order ("II" or "MM"), whatever
    /// number follows, and is not Canon's CIFF (CRW, "HEAPCCDR" at byte 6). LibRaw parses all of these as TIFF.
    public static func isTIFFStructuredRaw<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        let head = [UInt8](bytes.prefix(14))
        guard head.count >= 2, head[0] == head[1], head[0] == 0x49 || head[0] == 0x4D else { return false }
        return head.count < 14 || Array(head[6..<14]) != Array("HEAPCCDR".utf8)
    }

    public var isLittleEndian: Bool { parser.littleEndian }

    /// The byte order of the stream ("II" little-endian, "MM" big-endian).
    public var byteOrder: ByteOrder { parser.byteOrder }

    /// The directory at `offset`.
    public func directory(at offset: Int) throws -> Directory {
        Directory(offset: offset, fields: try parser.directory(at: offset))
    }

    /// The main IFD chain (IFD0, IFD1, …), at most `limit` long and never looping.
    public func mainDirectories(limit: Int = 16) throws -> [Directory] {
        try parser.mainDirectoryOffsets(limit: limit).map { try directory(at: $0) }
    }

    /// Checks the directory tree a raw decoder will walk — the main IFD chain and, below each
    /// directory, the SubIFD (330), Exif (34665), GPS (34853) and Interoperability (40965) pointers —
    /// and throws when a directory lies outside the data or does not fit, or when an entry's values do. LibRaw
    /// follows these pointers and offsets without such checks (a SubIFD offset past the end, or a CFAPattern
    /// whose values lie past it, crashes LibRaw 0.20).
    public func validateDirectoryTree(maxDirectories: Int = 256) throws {
        var pending = parser.mainDirectoryOffsets(limit: 64).map { ($0, 0) }
        var seen: Set<Int> = []
        while let (offset, depth) = pending.popLast() {
            guard seen.insert(offset).inserted else { continue }
            guard seen.count <= maxDirectories, depth <= 8 else {
                throw MediaFormatError.invalidMetadata("too many or too deeply nested TIFF directories")
            }
            let directory = try self.directory(at: offset)
            if let tag = try parser.entryOutsideData(inDirectoryAt: offset) {
                throw MediaFormatError.invalidMetadata("TIFF tag \(tag)'s values lie outside the file")
            }
            for tag: UInt16 in [330, 34665, 34853, 40965] {
                for child in directory.integers(tag) ?? [] where child != 0 { pending.append((child, depth + 1)) }
            }
        }
    }

    /// Throws `.truncated` when the image data — strips (StripOffsets/StripByteCounts) or tiles (TileOffsets/
    /// TileByteCounts) — of any of `directories` runs past the end of the file, as in a file cut after its directories.
    public func checkImageDataWithinFile(_ directories: [Directory]) throws {
        let size = parser.bytes.count
        for directory in directories {
            let offsets = directory.integers(273) ?? directory.integers(324) ?? []
            let counts = directory.integers(279) ?? directory.integers(325) ?? []
            for (offset, count) in zip(offsets, counts) where offset < 0 || count < 0 || offset > size - count {
                throw MediaFormatError.truncated
            }
        }
    }

    /// The SubIFDs (tag 330) of `directory` that can be read.
    public func subDirectories(of directory: Directory) -> [Directory] {
        (directory.integers(330) ?? []).prefix(64).compactMap { try? self.directory(at: $0) }
    }
}
