import CPNG
import Foundation

/// A PNG's IHDR fields and chunk list, read through `ByteReader` (every length checked against
/// the file) — the one reader of PNG structure (libpng decodes the pixels, `PNGCodec`), used by
/// `inspect`, `fuse` and the photo library.
public struct PNGHeader: Sendable, Equatable {
    /// One chunk: its type and where its body lies in the file.
    public struct Chunk: Sendable, Equatable {
        public var type: String
        public var body: Range<Int>
    }

    public var width: Int
    public var height: Int
    public var bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
    public var colorType: Int

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the signature and the IHDR chunk that must follow it. Throws `.truncated` when the file
    /// ends inside them, `.invalidImage` when they are not PNG's.
    public init(_ data: Data) throws {
        let r = ByteReader(data.prefix(33))
        guard r.matches(Self.signature) else { throw MediaFormatError.invalidImage("not a PNG (bad signature)") }
        guard r.count >= 33 else { throw MediaFormatError.truncated }
        guard try r.fourCC(12) == "IHDR", try r.u32(8) == 13 else { throw MediaFormatError.invalidImage("PNG without an IHDR chunk") }
        width = Int(try r.u32(16))
        height = Int(try r.u32(20))
        bitDepth = Int(try r.u8(24))
        colorType = Int(try r.u8(25))
    }

    /// The ICC profile of the `iCCP` chunk (name, NUL, compression 0, zlib stream), inflated; nil without one.
    /// Throws `.invalidImage` when the chunk is damaged or the profile would exceed 16 MB.
    public static func iccProfile(in data: Data) throws -> Data? {
        guard let chunk = try chunks(in: data).first(where: { $0.type == "iCCP" }) else { return nil }
        return try iccProfile(chunk: data[(data.startIndex + chunk.body.lowerBound)..<(data.startIndex + chunk.body.upperBound)])
    }

    /// The ICC profile an `iCCP` chunk's body holds, inflated; see `iccProfile(in:)`.
    public static func iccProfile(chunk: Data) throws -> Data {
        let body = [UInt8](chunk)
        guard let nul = body.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 < body.count, body[nul + 1] == 0 else {
            throw MediaFormatError.invalidImage("PNG iCCP chunk is damaged")
        }
        let stream = Array(body[(nul + 2)...])
        var capacity = max(4096, stream.count * 4)
        while capacity <= 16 << 20 {
            var profile = [UInt8](repeating: 0, count: capacity)
            var length = uLongf(capacity)
            let status = profile.withUnsafeMutableBufferPointer { out in
                stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
            }
            if status == Z_OK { return Data(profile.prefix(Int(length))) }
            guard status == Z_BUF_ERROR else { throw MediaFormatError.invalidImage("PNG iCCP profile does not inflate") }
            capacity *= 4
        }
        throw MediaFormatError.invalidImage("PNG iCCP profile is larger than 16 MB")
    }

    /// The colour primaries of the `cICP` chunk (ITU-T H.273: 1 BT.709/sRGB, 12 P3-D65); nil without one.
    public static func codingPrimaries(in data: Data) throws -> Int? {
        guard let chunk = try chunks(in: data).first(where: { $0.type == "cICP" }), chunk.body.count >= 1 else { return nil }
        return Int(data[data.startIndex + chunk.body.lowerBound])
    }

    /// Every chunk from IHDR to IEND. Throws `.truncated` when a chunk runs past the end of the
    /// file or the file ends before IEND.
    /// The body of a PNG's `eXIf` chunk (a TIFF-structured EXIF, as `ExifReader` reads), or nil when it has none.
    public static func exif(in data: Data) throws -> Data? {
        guard let chunk = try chunks(in: data).first(where: { $0.type == "eXIf" }) else { return nil }
        return data.subdata(in: (data.startIndex + chunk.body.lowerBound)..<(data.startIndex + chunk.body.upperBound))
    }

    public static func chunks(in data: Data) throws -> [Chunk] {
        let r = ByteReader(data)
        guard r.matches(signature) else { throw MediaFormatError.invalidImage("not a PNG (bad signature)") }
        var result: [Chunk] = []
        var i = signature.count
        while true {
            let length = Int(try r.u32(i))                     // throws .truncated past the end
            let type = try r.fourCC(i + 4)
            guard r.contains(i + 8, length + 4) else { throw MediaFormatError.truncated }   // body + CRC
            result.append(Chunk(type: type, body: (i + 8)..<(i + 8 + length)))
            if type == "IEND" { return result }
            i += 12 + length
        }
    }

    /// The type of the first chunk in `data` whose stored CRC-32 (over its type and body) does not match, or nil when
    /// every chunk's does (zlib's crc32). libpng rejects a bad critical chunk but only warns about an ancillary one.
    public static func firstChunkWithBadCRC(in data: Data) throws -> String? {
        let bytes = [UInt8](data)
        for chunk in try chunks(in: data) {
            let start = chunk.body.lowerBound - 4, end = chunk.body.upperBound
            let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress! + start, UInt32(end - start))) }
            let stored = bytes[end..<(end + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if crc != stored { return chunk.type }
        }
        return nil
    }
}
