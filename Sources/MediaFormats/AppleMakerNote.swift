/// The Apple MakerNote (EXIF tag 0x927C) as iPhones write it, reduced to what pairs a Live Photo:
/// the 14-byte header `"Apple iOS\0" 00 01 "MM"`, then a big-endian IFD whose value offsets count from
/// the start of the MakerNote, holding MakerNoteVersion (0x0001) and the content identifier (0x0011)
/// that the Live Photo's movie carries too (../shared/reference/FORMATS.md §4.1; exiftool's
/// `Apple:ContentIdentifier`, `MediaGroupUUID` in exiftool 12.57).
public enum AppleMakerNote {
    static let header: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)

    /// The MakerNote bytes carrying `contentIdentifier` (an ASCII UUID string).
    public static func bytes(contentIdentifier: String) -> [UInt8] {
        let text = Array(contentIdentifier.utf8) + [0]
        var out = header
        func u16(_ v: UInt16) { out += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) { out += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        let entries = 2
        let dataOffset = header.count + 2 + entries * 12 + 4
        u16(UInt16(entries))
        u16(0x0001); u16(9); u32(1); u32(14)                                            // MakerNoteVersion, SLONG
        u16(0x0011); u16(2); u32(UInt32(text.count))                                    // ContentIdentifier, ASCII
        if text.count <= 4 {                                                            // short values sit in the entry
            out += text + [UInt8](repeating: 0, count: 4 - text.count)
        } else {
            u32(UInt32(dataOffset))
        }
        u32(0)
        if text.count > 4 { out += text }
        return out
    }

    /// The content identifier in MakerNote `bytes`, if they are Apple's and hold one.
    public static func contentIdentifier(in bytes: [UInt8]) -> String? {
        guard let field = entries(in: bytes).first(where: { $0.tag == 0x0011 && $0.field.type == .ascii && $0.field.count > 0 }) else {
            return nil
        }
        return field.field.string
    }

    /// The fields of MakerNote `bytes` (Apple's, else none), as `ExifField`s of `.appleMakerNote`: what ImageIO's
    /// `{MakerApple}` dictionary holds, keyed by the tag in decimal ("1" MakerNoteVersion, "17" ContentIdentifier).
    static func fields(in bytes: [UInt8]) -> [ExifField] {
        entries(in: bytes).compactMap { entry in
            entry.field.exifValue.map { ExifField(directory: .appleMakerNote, tag: entry.tag, value: $0) }
        }
    }

    /// The entries of the big-endian IFD after the header, value offsets counted from the MakerNote's start; reading
    /// stops at the first entry that does not fit (at most 64).
    private static func entries(in bytes: [UInt8]) -> [(tag: UInt16, field: TIFFField)] {
        guard bytes.count >= header.count + 2, Array(bytes.prefix(header.count)) == header else { return [] }
        func u16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil }
        func u32(_ at: Int) -> Int? {
            guard let hi = u16(at), let lo = u16(at + 2) else { return nil }
            return hi << 16 | lo
        }
        guard let count = u16(header.count) else { return [] }
        var result: [(tag: UInt16, field: TIFFField)] = []
        for i in 0..<min(count, 64) {
            let entry = header.count + 2 + i * 12
            guard let tag = u16(entry), let rawType = u16(entry + 2), let n = u32(entry + 4), let offset = u32(entry + 8) else { break }
            guard let type = TIFFType(rawValue: UInt16(rawType)) else { continue }
            let size = n * type.size
            let start = size <= 4 ? entry + 8 : offset
            guard start >= 0, start + size <= bytes.count else { break }
            result.append((UInt16(tag), TIFFField(type: type, count: n, bytes: Array(bytes[start..<(start + size)]), byteOrder: .bigEndian)))
        }
        return result
    }
}
