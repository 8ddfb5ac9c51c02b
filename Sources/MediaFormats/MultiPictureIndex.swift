import Foundation

/// The MP Index of a JPEG's APP2 "MPF" segment (CIPA DC-007 multi-picture format): which images
/// the file holds, where and of what type. An iPhone's "Most Compatible" portrait JPEG lists its
/// depth map and portrait matte here as secondary JPEGs appended after the primary's EOI.
public struct MultiPictureIndex: Sendable, Equatable {
    /// One MPEntry.
    public struct Entry: Sendable, Equatable {
        /// Individual image attribute: flags (bit 31 dependent parent, 30 dependent child,
        /// 29 representative image), data format (bits 26–24, 0 = JPEG) and type (bits 23–0).
        public var attribute: UInt32
        /// Bytes of the image, SOI to EOI.
        public var size: Int
        /// Absolute offset of the image's SOI in the file (0 for the primary image).
        public var offset: Int

        /// MP type code: 0x030000 Baseline MP Primary, 0x010001/0x010002 Large Thumbnail,
        /// 0x020002 Multi-frame Disparity, 0x000000 Undefined (Apple's depth and matte).
        public var type: UInt32 { attribute & 0xFF_FFFF }
    }

    public var entries: [Entry]

    /// At most this many entries are read (a file declaring more is refused).
    public static let maxEntries = 64

    /// MPType of the primary image ("Baseline MP Primary Image") and of depth/matte secondaries (Undefined).
    static let primaryAttribute: UInt32 = 0x2003_0000
    static let undefinedAttribute: UInt32 = 0

    /// The index of `jpeg`'s first APP2 "MPF\0" segment, or nil when it has none. Throws
    /// `.invalidMetadata` when the index is malformed or an image lies outside the file.
    public static func read(jpeg data: Data) throws -> MultiPictureIndex? {
        let b = [UInt8](data)
        let signature: [UInt8] = Array("MPF".utf8) + [0]
        guard let segment = try JPEGSegments.segments(in: b).first(where: { $0.marker == 0xE2 && b[$0.payload].starts(with: signature) }) else {
            return nil
        }
        let base = segment.payload.lowerBound + 4                 // the MP header's TIFF header
        let tiff = [UInt8](b[base..<segment.payload.upperBound])
        func bad(_ why: String) -> MediaFormatError { .invalidMetadata("MPF: \(why)") }
        guard tiff.count >= 8 else { throw bad("header too short") }
        let order: ByteOrder
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): order = .bigEndian
        case (0x49, 0x49): order = .littleEndian
        default: throw bad("no byte-order mark")
        }
        let r = ByteReader(tiff, byteOrder: order)
        do {
            let ifd = Int(try r.u32(4))
            let count = Int(try r.u16(ifd))
            guard count <= 64 else { throw bad("\(count) index tags") }
            var entriesAt: Int?, entryBytes = 0
            for k in 0..<count {
                let at = ifd + 2 + 12 * k
                if try r.u16(at) == 0xB002 {
                    guard try r.u16(at + 2) == 7 else { throw bad("MPEntry is not UNDEFINED") }
                    entryBytes = Int(try r.u32(at + 4))
                    entriesAt = Int(try r.u32(at + 8))
                }
            }
            guard let entriesAt else { throw bad("no MPEntry tag") }
            guard entryBytes % 16 == 0, entryBytes / 16 <= maxEntries else { throw bad("MPEntry of \(entryBytes) bytes") }
            try r.require(entriesAt, entryBytes)
            var entries: [Entry] = []
            for k in 0..<(entryBytes / 16) {
                let at = entriesAt + 16 * k
                let size = Int(try r.u32(at + 4)), relative = Int(try r.u32(at + 8))
                let offset = relative == 0 ? 0 : base + relative
                guard ByteReader(b).contains(offset, size) else { throw bad("image \(k + 1) (\(size) bytes at \(offset)) lies outside the file") }
                entries.append(Entry(attribute: try r.u32(at), size: size, offset: offset))
            }
            return MultiPictureIndex(entries: entries)
        } catch MediaFormatError.truncated {
            throw bad("index runs past its segment")
        }
    }

    /// The JPEG images of the file, primary first, each as its own bytes.
    public func images(in data: Data) -> [Data] {
        entries.map { data.subdata(in: (data.startIndex + $0.offset)..<(data.startIndex + $0.offset + $0.size)) }
    }

    /// `primary` with an APP2 MPF index inserted after its leading APPn segments, followed by
    /// `secondaries` (whole JPEGs): offsets are relative to the MP header's TIFF header (CIPA
    /// DC-007 §5.2.3.3.3), the primary's entry has offset 0 and covers the primary with the index.
    static func assemble(primary: Data, secondaries: [Data], secondaryAttribute: UInt32 = undefinedAttribute) throws -> Data {
        let b = [UInt8](primary)
        let segments = try JPEGSegments.segments(in: b)
        let insertAt = segments.first(where: { !(0xE0...0xEF).contains($0.marker) })?.offset ?? 2
        let n = secondaries.count + 1
        let tiffLength = 8 + 2 + 3 * 12 + 4 + 16 * n
        let segmentLength = 4 + 4 + tiffLength
        guard segmentLength - 2 <= 0xFFFF else { throw MediaFormatError.encoderFailed("MPF index too large") }
        let primarySize = b.count + segmentLength
        let tiffStart = insertAt + 8
        var w = BMFFWriter()
        w.u8(0xFF); w.u8(0xE2); w.u16(UInt16(segmentLength - 2))
        w.append(Array("MPF".utf8) + [0])
        w.append([0x4D, 0x4D, 0x00, 0x2A]); w.u32(8)             // big-endian TIFF header, IFD at 8
        w.u16(3)
        w.u16(0xB000); w.u16(7); w.u32(4); w.append(Array("0100".utf8))     // MPFVersion
        w.u16(0xB001); w.u16(4); w.u32(1); w.u32(UInt32(n))                 // NumberOfImages
        w.u16(0xB002); w.u16(7); w.u32(UInt32(16 * n)); w.u32(UInt32(8 + 2 + 3 * 12 + 4))   // MPEntry
        w.u32(0)                                                  // no MP Attribute IFD
        var position = primarySize
        w.u32(primaryAttribute); w.u32(UInt32(primarySize)); w.u32(0); w.u16(0); w.u16(0)
        for s in secondaries {
            guard position - tiffStart <= Int(UInt32.max), s.count <= Int(UInt32.max) else {
                throw MediaFormatError.encoderFailed("MPF images beyond 4 GB")
            }
            w.u32(secondaryAttribute); w.u32(UInt32(s.count)); w.u32(UInt32(position - tiffStart)); w.u16(0); w.u16(0)
            position += s.count
        }
        var out = Data(b[..<insertAt])
        out.append(contentsOf: w.bytes)
        out.append(contentsOf: b[insertAt...])
        for s in secondaries { out.append(s) }
        return out
    }
}
