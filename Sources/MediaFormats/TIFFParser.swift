import Foundation

/// The bounds-checked reader of TIFF structure (header, IFD chain, entries) in either byte
/// order, for EXIF blobs, TIFF, DNG and TIFF-based camera raws. Values are decoded by `TIFFField`.
struct TIFFParser: Sendable {
    let reader: ByteReader
    let firstIFDOffset: Int

    var bytes: [UInt8] { reader.bytes }
    var byteOrder: ByteOrder { reader.byteOrder }
    var littleEndian: Bool { reader.byteOrder == .littleEndian }

    /// `anyMagic`: accept any number after the byte order (camera raws built on TIFF use their own: ORF 0x4F52,
    /// RW2 0x55), as raw decoders do.
    init(_ bytes: [UInt8], anyMagic: Bool = false) throws {
        guard bytes.count >= 8 else { throw bytes.isEmpty ? MediaFormatError.invalidMetadata("empty TIFF stream") : MediaFormatError.truncated }
        let order: ByteOrder
        if bytes[0] == 0x49, bytes[1] == 0x49 { order = .littleEndian }
        else if bytes[0] == 0x4D, bytes[1] == 0x4D { order = .bigEndian }
        else { throw MediaFormatError.invalidMetadata("bad TIFF byte order") }
        let r = ByteReader(bytes, byteOrder: order)
        let magic = try r.u16(2)
        guard anyMagic || magic == 42 else { throw MediaFormatError.invalidMetadata("bad TIFF magic") }
        reader = r
        firstIFDOffset = Int(try r.u32(4))
    }

    /// The offset stored after the directory at `offset`, or nil when it cannot be read.
    func nextIFDOffset(after offset: Int) -> Int? {
        guard let n = try? reader.u16(offset) else { return nil }
        return (try? reader.u32(offset + 2 + 12 * Int(n))).map(Int.init)
    }

    /// The entries of the directory at `offset`. Entries of unknown type or whose values lie
    /// outside the data are left out; a directory that does not fit throws.
    func directory(at offset: Int) throws -> [UInt16: TIFFField] {
        guard offset >= 8 else { throw MediaFormatError.invalidMetadata("IFD offset \(offset) out of range") }
        // A directory past the end of the data: the file was cut short.
        guard reader.contains(offset, 2) else { throw MediaFormatError.truncated }
        let n = Int(try reader.u16(offset))
        guard reader.contains(offset + 2, 12 * n) else { throw MediaFormatError.truncated }
        var fields: [UInt16: TIFFField] = [:]
        for k in 0..<n {
            let e = offset + 2 + 12 * k
            guard let type = TIFFType(rawValue: try reader.u16(e + 2)) else { continue }
            let count = Int(try reader.u32(e + 4))
            let (size, overflow) = count.multipliedReportingOverflow(by: type.size)
            guard !overflow else { continue }
            let start = size <= 4 ? e + 8 : Int(try reader.u32(e + 8))
            guard reader.contains(start, size) else { continue }
            fields[try reader.u16(e)] = TIFFField(type: type, count: count, bytes: Array(try reader.slice(start, size)),
                                                  byteOrder: reader.byteOrder)
        }
        return fields
    }

    /// The tag of the first entry of the directory at `offset` whose values lie outside the data (or whose size
    /// overflows), or nil when every entry's values are inside. A directory that does not fit throws.
    func entryOutsideData(inDirectoryAt offset: Int) throws -> UInt16? {
        guard offset >= 8 else { throw MediaFormatError.invalidMetadata("IFD offset \(offset) out of range") }
        // A directory past the end of the data: the file was cut short.
        guard reader.contains(offset, 2) else { throw MediaFormatError.truncated }
        let n = Int(try reader.u16(offset))
        guard reader.contains(offset + 2, 12 * n) else { throw MediaFormatError.truncated }
        for k in 0..<n {
            let e = offset + 2 + 12 * k
            let type = TIFFType(rawValue: try reader.u16(e + 2))
            let (size, overflow) = Int(try reader.u32(e + 4)).multipliedReportingOverflow(by: type?.size ?? 1)
            if overflow { return try reader.u16(e) }
            if size > 4, !reader.contains(Int(try reader.u32(e + 8)), size) { return try reader.u16(e) }
        }
        return nil
    }

    /// The main IFD chain (IFD0, IFD1, …), at most `limit` long and never looping.
    func mainDirectoryOffsets(limit: Int = 16) -> [Int] {
        var result: [Int] = []
        var offset = firstIFDOffset
        var seen: Set<Int> = []
        while offset != 0, result.count < limit, seen.insert(offset).inserted {
            result.append(offset)
            guard let next = nextIFDOffset(after: offset) else { break }
            offset = next
        }
        return result
    }
}
