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

    /// Whether the primary image's data, once the header walk reaches the first scan, cannot hold the picture — read
    /// from the bytes, without decoding (nil: nothing wrong seen): it runs out before its end marker (`.cutShort`), or
    /// it is shorter than the frame its header claims could take (`.tooShortForFrame`), so a header claiming
    /// 65500×65500 over a 64×48 picture's data is refused before any reader believes the size. The least a frame takes:
    /// every 8×8 block of every component (as its sampling factors size it) has a Huffman-coded DC difference, at least
    /// a bit, and in a sequential frame an end-of-block code too (or 63 coded coefficients), another. Only
    /// Huffman-coded DCT frames (sequential and progressive) are measured: arithmetic coding can spend less than a bit
    /// on a block, and lossless and hierarchical frames are not decoded here. A smaller lie passes this test; decoding
    /// the file (`JPEGDecoder`) still finds it. (A walk stopped by damage before the scan — stray bytes between
    /// segments, which libjpeg reads past — is not looked at.)
    public static func imageDataProblem(in data: Data) -> JPEGImageDataProblem? {
        let b = [UInt8](data)
        let segments = walk(b).0
        guard let scan = segments.last, scan.marker == 0xDA else { return nil }
        guard let end = endOfImage(b, after: scan.payload.upperBound) else { return .cutShort }
        guard let frame = segments.first(where: { [0xC0, 0xC1, 0xC2].contains($0.marker) }),
              let blocks = blockCount(b, frame: frame.payload) else { return nil }
        let bytes = end - scan.payload.upperBound
        let minimumBytes = (blocks * (frame.marker == 0xC2 ? 1 : 2) + 7) / 8
        return bytes < minimumBytes
            ? .tooShortForFrame(width: Int(b[frame.payload.lowerBound + 3]) << 8 | Int(b[frame.payload.lowerBound + 4]),
                                height: Int(b[frame.payload.lowerBound + 1]) << 8 | Int(b[frame.payload.lowerBound + 2]),
                                bytes: bytes, minimumBytes: minimumBytes)
            : nil
    }

    /// The number of 8×8 blocks of all components of the frame whose header is `payload` (each component sized by its
    /// sampling factors against the largest); nil for a header without a size or with impossible factors.
    private static func blockCount(_ b: [UInt8], frame payload: Range<Int>) -> Int? {
        guard payload.count >= 6 else { return nil }
        let p = payload.lowerBound
        let height = Int(b[p + 1]) << 8 | Int(b[p + 2]), width = Int(b[p + 3]) << 8 | Int(b[p + 4]), count = Int(b[p + 5])
        // (A height of 0 is set later by a DNL marker: no size to measure against.)
        guard width > 0, height > 0, count > 0, payload.count >= 6 + 3 * count else { return nil }
        let factors = (0..<count).map { SIMD2(Int(b[p + 7 + 3 * $0] >> 4), Int(b[p + 7 + 3 * $0] & 0x0F)) }
        guard factors.allSatisfy({ (1...4).contains($0.x) && (1...4).contains($0.y) }) else { return nil }
        let most = factors.reduce(SIMD2(1, 1)) { SIMD2(max($0.x, $1.x), max($0.y, $1.y)) }
        return factors.reduce(0) { blocks, factor in
            let columns = (width * factor.x + most.x - 1) / most.x, rows = (height * factor.y + most.y - 1) / most.y
            return blocks + (columns + 7) / 8 * ((rows + 7) / 8)
        }
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
