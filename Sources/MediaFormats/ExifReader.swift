import Foundation

/// Reads EXIF back into `ExifMetadata`: a minimal parser (either byte order) for tests and
/// round-tripping, covering the fields `ExifWriter` writes.
public enum ExifReader {
    /// Minimal parser for tests and for round-tripping: reads the EXIF of a JPEG (or a raw
    /// TIFF blob) back into ExifMetadata.
    public static func read(jpeg: Data) throws -> ExifMetadata {
        let tiff = try TIFFParser(try tiffBytes(in: jpeg))
        let ifd0 = try tiff.directory(at: tiff.firstIFDOffset)
        var exif = ExifMetadata()
        exif.imageDescription = tiff.string(ifd0[0x010E])
        exif.make = tiff.string(ifd0[0x010F])
        exif.model = tiff.string(ifd0[0x0110])
        exif.orientation = tiff.integer(ifd0[0x0112]) ?? 1
        exif.software = tiff.string(ifd0[0x0131])
        exif.artist = tiff.string(ifd0[0x013B])
        exif.copyright = tiff.string(ifd0[0x8298])
        exif.sensingMethod = nil
        exif.colorSpace = 1

        if let p = tiff.integer(ifd0[0x8769]) {
            let e = try tiff.directory(at: p)
            exif.exposureTime = tiff.real(e[0x829A])
            exif.fNumber = tiff.real(e[0x829D])
            exif.exposureProgram = tiff.integer(e[0x8822]).map { UInt16(clamping: $0) }
            exif.iso = tiff.integer(e[0x8827])
            if let text = tiff.string(e[0x9003]),
               let (date, offset) = ExifDate.parse(text, subSec: tiff.string(e[0x9291]), offset: tiff.string(e[0x9011])) {
                exif.dateTimeOriginal = date
                exif.timeZoneOffsetSeconds = offset
            }
            exif.brightnessValue = tiff.real(e[0x9203])
            exif.exposureBiasValue = tiff.real(e[0x9204])
            exif.meteringMode = tiff.integer(e[0x9207]).map { UInt16(clamping: $0) }
            exif.flash = tiff.integer(e[0x9209]).map { UInt16(clamping: $0) }
            exif.focalLength = tiff.real(e[0x920A])
            if let raw = e[0x9286], raw.bytes.count >= 8 {
                let header = raw.bytes.prefix(8)
                let body = Array(raw.bytes.dropFirst(8))
                if header.starts(with: Array("UNICODE".utf8)) {
                    let units = stride(from: 0, to: body.count - 1, by: 2).map {
                        tiff.littleEndian ? UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8
                                          : UInt16(body[$0]) << 8 | UInt16(body[$0 + 1])
                    }
                    exif.userComment = String(decoding: units, as: UTF16.self)
                } else {
                    exif.userComment = String(decoding: body, as: UTF8.self)
                }
            }
            exif.colorSpace = tiff.integer(e[0xA001]).map { UInt16(clamping: $0) } ?? 1
            exif.pixelXDimension = tiff.integer(e[0xA002])
            exif.pixelYDimension = tiff.integer(e[0xA003])
            exif.sensingMethod = tiff.integer(e[0xA217]).map { UInt16(clamping: $0) }
            exif.exposureMode = tiff.integer(e[0xA402]).map { UInt16(clamping: $0) }
            exif.whiteBalance = tiff.integer(e[0xA403]).map { UInt16(clamping: $0) }
            exif.focalLengthIn35mmFilm = tiff.integer(e[0xA405])
            exif.sceneCaptureType = tiff.integer(e[0xA406]).map { UInt16(clamping: $0) }
            exif.lensMake = tiff.string(e[0xA433])
            exif.lensModel = tiff.string(e[0xA434])
        }
        if let p = tiff.integer(ifd0[0x8825]) {
            let g = try tiff.directory(at: p)
            func degrees(_ tag: UInt16, ref: UInt16, negative: String) -> Double? {
                guard let v = tiff.reals(g[tag]), v.count == 3 else { return nil }
                let d = v[0] + v[1] / 60 + v[2] / 3600
                return tiff.string(g[ref]) == negative ? -d : d
            }
            if let lat = degrees(0x0002, ref: 0x0001, negative: "S"), let lon = degrees(0x0004, ref: 0x0003, negative: "W") {
                var info = GPSInfo(latitude: lat, longitude: lon)
                if let alt = tiff.real(g[0x0006]) { info.altitude = tiff.integer(g[0x0005]) == 1 ? -alt : alt }
                if let day = tiff.string(g[0x001D]), let t = tiff.reals(g[0x0007]), t.count == 3,
                   let (midnight, _) = ExifDate.parse(day + " 00:00:00", subSec: nil, offset: nil) {
                    info.timestamp = midnight.addingTimeInterval(t[0] * 3600 + t[1] * 60 + t[2])
                }
                exif.gps = info
            }
        }
        return exif
    }

    /// The IFD1 JPEG thumbnail of a JPEG's EXIF (or raw TIFF blob), if there is one.
    public static func thumbnail(jpeg: Data) throws -> Data? {
        let tiff = try TIFFParser(try tiffBytes(in: jpeg))
        let ifd0Offset = tiff.firstIFDOffset
        guard let next = tiff.nextIFDOffset(after: ifd0Offset), next != 0 else { return nil }
        let ifd1 = try tiff.directory(at: next)
        guard let start = tiff.integer(ifd1[0x0201]), let length = tiff.integer(ifd1[0x0202]),
              start >= 0, length > 0, start + length <= tiff.bytes.count else { return nil }
        return Data(tiff.bytes[start..<(start + length)])
    }

    /// The TIFF stream inside a JPEG's APP1 "Exif\0\0" segment, or `data` itself if it is TIFF.
    static func tiffBytes(in data: Data) throws -> [UInt8] {
        let b = [UInt8](data)
        if b.count >= 4, (b[0] == 0x49 && b[1] == 0x49) || (b[0] == 0x4D && b[1] == 0x4D) { return b }
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { throw MediaFormatError.invalidImage("not a JPEG or TIFF") }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { throw MediaFormatError.invalidImage("bad JPEG marker at \(i)") }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { throw MediaFormatError.truncated }
            let payload = (i + 4)..<(i + 2 + length)
            if marker == 0xE1, payload.count > 6, Array(b[payload.prefix(6)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return Array(b[(payload.lowerBound + 6)..<payload.upperBound])
            }
            i += 2 + length
        }
        throw MediaFormatError.invalidMetadata("no EXIF APP1 segment")
    }
}

/// A bounds-checked reader of TIFF directories in either byte order.
struct TIFFParser {
    struct Field {
        var type: UInt16
        var count: Int
        var bytes: [UInt8]
    }

    let bytes: [UInt8]
    let littleEndian: Bool
    let firstIFDOffset: Int

    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 8 else { throw MediaFormatError.truncated }
        let le: Bool
        if bytes[0] == 0x49, bytes[1] == 0x49 { le = true }
        else if bytes[0] == 0x4D, bytes[1] == 0x4D { le = false }
        else { throw MediaFormatError.invalidMetadata("bad TIFF byte order") }
        let probe = TIFFParser(bytes: bytes, littleEndian: le, first: 0)
        guard probe.u16(2) == 42 else { throw MediaFormatError.invalidMetadata("bad TIFF magic") }
        self.init(bytes: bytes, littleEndian: le, first: Int(probe.u32(4)))
    }

    private init(bytes: [UInt8], littleEndian: Bool, first: Int) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        self.firstIFDOffset = first
    }

    func u16(_ o: Int) -> UInt16 {
        let a = UInt16(bytes[o]), b = UInt16(bytes[o + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ o: Int) -> UInt32 {
        let a = UInt32(u16(o)), b = UInt32(u16(o + 2))
        return littleEndian ? a | b << 16 : a << 16 | b
    }

    func nextIFDOffset(after offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let end = offset + 2 + 12 * Int(u16(offset))
        guard end + 4 <= bytes.count else { return nil }
        return Int(u32(end))
    }

    func directory(at offset: Int) throws -> [UInt16: Field] {
        guard offset >= 8, offset + 2 <= bytes.count else { throw MediaFormatError.invalidMetadata("IFD offset out of range") }
        let n = Int(u16(offset))
        guard offset + 2 + 12 * n <= bytes.count else { throw MediaFormatError.truncated }
        var fields: [UInt16: Field] = [:]
        for k in 0..<n {
            let e = offset + 2 + 12 * k
            let type = u16(e + 2)
            let count = Int(u32(e + 4))
            let unit = TIFFType(rawValue: type)?.size ?? 1
            let (size, overflow) = count.multipliedReportingOverflow(by: unit)
            guard !overflow else { continue }
            let start = size <= 4 ? e + 8 : Int(u32(e + 8))
            guard start >= 0, start + size <= bytes.count else { continue }
            fields[u16(e)] = Field(type: type, count: count, bytes: Array(bytes[start..<(start + size)]))
        }
        return fields
    }

    func string(_ f: Field?) -> String? {
        guard let f, f.type == TIFFType.ascii.rawValue || f.type == TIFFType.undefined.rawValue else { return nil }
        let trimmed = f.bytes.prefix { $0 != 0 }
        return String(decoding: trimmed, as: UTF8.self)
    }

    private func view(_ f: Field) -> TIFFParser { TIFFParser(bytes: f.bytes, littleEndian: littleEndian, first: 0) }

    func integer(_ f: Field?) -> Int? {
        guard let f, f.count >= 1 else { return nil }
        let v = view(f)
        switch TIFFType(rawValue: f.type) {
        case .byte, .undefined: return Int(f.bytes[0])
        case .short: return Int(v.u16(0))
        case .long: return Int(v.u32(0))
        case .slong: return Int(Int32(bitPattern: v.u32(0)))
        default: return nil
        }
    }

    func reals(_ f: Field?) -> [Double]? {
        guard let f else { return nil }
        let v = view(f)
        switch TIFFType(rawValue: f.type) {
        case .rational:
            return (0..<f.count).map { k in
                let d = v.u32(8 * k + 4)
                return d == 0 ? 0 : Double(v.u32(8 * k)) / Double(d)
            }
        case .srational:
            return (0..<f.count).map { k in
                let d = Int32(bitPattern: v.u32(8 * k + 4))
                return d == 0 ? 0 : Double(Int32(bitPattern: v.u32(8 * k))) / Double(d)
            }
        default:
            return integer(f).map { [Double($0)] }
        }
    }

    func real(_ f: Field?) -> Double? { reals(f)?.first }
}
