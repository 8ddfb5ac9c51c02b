/// One TIFF directory entry's value, copied out of the file and decoded here only: the single
/// decoder of TIFF values (every type 1–13 in either byte order) for the EXIF reader, the tag
/// reader and the file-kind sniffer. `count` is the number of values the bytes really hold.
struct TIFFField: Sendable {
    var type: TIFFType
    var count: Int
    var bytes: [UInt8]
    var byteOrder: ByteOrder

    private var reader: ByteReader { ByteReader(bytes, byteOrder: byteOrder) }

    /// ASCII or UNDEFINED text up to the first NUL.
    var string: String? {
        guard type == .ascii || type == .undefined else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Every value of an integer field (BYTE, SBYTE, SHORT, SSHORT, LONG, SLONG, UNDEFINED, IFD).
    var integers: [Int]? {
        let r = reader
        func each(_ f: (Int) throws -> Int) -> [Int]? { try? (0..<count).map(f) }
        switch type {
        case .byte, .undefined: return bytes.prefix(count).map { Int($0) }
        case .sbyte: return bytes.prefix(count).map { Int(Int8(bitPattern: $0)) }
        case .short: return each { Int(try r.u16(2 * $0)) }
        case .sshort: return each { Int(Int16(bitPattern: try r.u16(2 * $0))) }
        case .long, .ifd: return each { Int(try r.u32(4 * $0)) }
        case .slong: return each { Int(Int32(bitPattern: try r.u32(4 * $0))) }
        case .ascii, .rational, .srational, .float, .double: return nil
        }
    }

    /// Every value as a Double: integers, RATIONAL/SRATIONAL (x/0 reads as 0), FLOAT and DOUBLE.
    var reals: [Double]? {
        let r = reader
        func each(_ f: (Int) throws -> Double) -> [Double]? { try? (0..<count).map(f) }
        switch type {
        case .rational: return each { k in
            let d = try r.u32(8 * k + 4)
            return d == 0 ? 0 : Double(try r.u32(8 * k)) / Double(d)
        }
        case .srational: return each { k in
            let d = Int32(bitPattern: try r.u32(8 * k + 4))
            return d == 0 ? 0 : Double(Int32(bitPattern: try r.u32(8 * k))) / Double(d)
        }
        case .float: return each { Double(Float(bitPattern: try r.u32(4 * $0))) }
        case .double: return each { Double(bitPattern: try r.u64(8 * $0)) }
        default: return integers?.map(Double.init)
        }
    }

    /// The value as `ExifField` carries it: ASCII as text, UNDEFINED as bytes, integers and reals by their type.
    var exifValue: ExifField.Value? {
        switch type {
        case .ascii: return string.map { .text($0) }
        case .undefined: return .bytes(Array(bytes.prefix(count)))
        case .rational, .srational, .float, .double: return reals.map { .reals($0) }
        default: return integers.map { .integers($0) }
        }
    }

    var integer: Int? { integers?.first }
    var real: Double? { reals?.first }
}
