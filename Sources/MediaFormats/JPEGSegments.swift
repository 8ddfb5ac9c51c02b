import Foundation

/// The one walker of JPEG marker segments, bounds-checked: EXIF (APP1), ICC (APP2) and MPF
/// lookups, metadata stripping and the file-kind sniffer all go through `segments(in:)`.
public enum JPEGSegments {
    /// The segments from SOI up to and including SOS (start of scan), whose payload is the scan
    /// header only. Fill bytes (0xFF 0xFF) and standalone markers are skipped. Throws
    /// `.invalidImage` without an SOI, `.truncated` when a segment runs past the end.
    public static func segments(in data: Data) throws -> [JPEGSegment] {
        try segments(in: [UInt8](data))
    }

    static func segments(in b: [UInt8]) throws -> [JPEGSegment] {
        let (result, error) = walk(b)
        if let error { throw error }
        return result
    }

    /// The segments that could be read, and the error that stopped the walk early, if any.
    static func walk(_ b: [UInt8]) -> ([JPEGSegment], MediaFormatError?) {
        let r = ByteReader(b)
        guard r.matches([0xFF, 0xD8]) else {
            return ([], b.count < 2 && b.first == 0xFF ? .truncated : .invalidImage("not a JPEG (no SOI marker)"))
        }
        var result: [JPEGSegment] = []
        var i = 2
        while true {
            guard i + 4 <= b.count else { return (result, .truncated) }
            guard b[i] == 0xFF else { return (result, .invalidImage("bad JPEG marker at offset \(i)")) }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD9 { return (result, nil) }                            // EOI before any scan
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return (result, .invalidImage("JPEG segment length \(length) at offset \(i)")) }
            guard r.contains(i + 4, length - 2) else { return (result, .truncated) }
            result.append(JPEGSegment(marker: marker, offset: i, payload: (i + 4)..<(i + 2 + length)))
            if marker == 0xDA { return (result, nil) }
            i += 2 + length
        }
    }

    /// The offset just past the EOI marker that ends the primary image — its entropy-coded data from the first scan
    /// on, through any later scans of a progressive file — or nil when the data ends first (a truncated file) or has
    /// no scan. What follows it (a Motion Photo's video, MPF's secondary images) is not read.
    public static func endOfImage(in data: Data) -> Int? {
        imageEnd([UInt8](data)).end
    }

    /// Whether the header walk reaches the first scan and the image data then runs out before its end marker: a file
    /// cut inside its image data. (A walk stopped by damage before the scan — stray bytes between segments, which
    /// libjpeg reads past — is not this.)
    public static func isCutInsideImageData(_ data: Data) -> Bool {
        let found = imageEnd([UInt8](data))
        return found.reachedScan && found.end == nil
    }

    /// One walk: whether the headers reach a scan, and where the primary image's data ends after it.
    private static func imageEnd(_ bytes: [UInt8]) -> (reachedScan: Bool, end: Int?) {
        guard let scan = walk(bytes).0.last, scan.marker == 0xDA else { return (false, nil) }
        return (true, endOfImage(bytes, after: scan.payload.upperBound))
    }

    /// The offset just past the EOI marker that ends the entropy-coded data starting at `start`.
    static func endOfImage(_ b: [UInt8], after start: Int) -> Int? {
        var i = start
        while i + 1 < b.count {
            if b[i] == 0xFF {
                let next = b[i + 1]
                if next == 0xD9 { return i + 2 }
                if next == 0x00 || next == 0xFF || (0xD0...0xD7).contains(next) { i += next == 0xFF ? 1 : 2; continue }
                // Another marker (a later scan of a progressive JPEG): skip its segment.
                guard i + 3 < b.count else { return nil }
                i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
                continue
            }
            i += 1
        }
        return nil
    }

    /// The segments readable before any damage; throws only when `b` is not a JPEG at all.
    private static func readable(_ b: [UInt8]) throws -> [JPEGSegment] {
        let (result, error) = walk(b)
        if result.isEmpty, let error { throw error }
        return result
    }

    /// The TIFF stream of the first APP1 "Exif\0\0" segment, or nil when there is none.
    public static func exifTIFF(in data: Data) throws -> Data? {
        let b = [UInt8](data)
        let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        for s in try readable(b) where s.marker == 0xE1 && s.payload.count > 6 && b[s.payload].starts(with: signature) {
            return Data(b[(s.payload.lowerBound + 6)..<s.payload.upperBound])
        }
        return nil
    }

    /// The ICC profile of the APP2 "ICC_PROFILE" chunks, joined in sequence order, or nil.
    public static func iccProfile(in data: Data) throws -> Data? {
        let b = [UInt8](data)
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [(Int, ArraySlice<UInt8>)] = []
        for s in try readable(b) where s.marker == 0xE2 && s.payload.count > 14 && b[s.payload].starts(with: signature) {
            chunks.append((Int(b[s.payload.lowerBound + 12]), b[(s.payload.lowerBound + 14)..<s.payload.upperBound]))
        }
        guard !chunks.isEmpty else { return nil }
        return Data(chunks.sorted { $0.0 < $1.0 }.flatMap { $0.1 })
    }

    /// Whether an APP2 "MPF\0" segment (CIPA multi-picture format) is present.
    public static func hasMPF(in data: Data) throws -> Bool {
        let b = [UInt8](data)
        return try readable(b).contains { $0.marker == 0xE2 && b[$0.payload].starts(with: Array("MPF".utf8) + [0]) }
    }

    /// A copy of `jpeg` without APPn and COM segments, as EXIF requires of IFD1 thumbnails.
    public static func strippingMetadata(_ jpeg: Data) throws -> Data {
        let b = [UInt8](jpeg)
        let all: [JPEGSegment]
        do { all = try segments(in: b) } catch MediaFormatError.invalidImage(let why) { throw MediaFormatError.invalidImage("thumbnail: \(why)") }
        guard let scan = all.last, scan.marker == 0xDA else { throw MediaFormatError.truncated }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(b.count)
        for s in all.dropLast() where !((0xE0...0xEF).contains(s.marker) || s.marker == 0xFE) {
            out += b[s.offset..<s.payload.upperBound]
        }
        out += b[scan.offset...]
        return Data(out)
    }

    /// A Swift string from a fixed-size C char array (libjpeg's and libpng's message buffers).
    static func message<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
