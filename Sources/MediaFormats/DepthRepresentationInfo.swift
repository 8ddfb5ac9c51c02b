/// HEVC's depth representation information SEI message (ITU-T H.265 F.14.2.4, payload type 177)
/// as HEIF stores it in a depth item's `auxC` property after the URN: a 4-byte length, then
/// 4-byte-length-prefixed prefix-SEI NAL units. An iPhone writes one (e.g. `00 00 00 11 |
/// 00 00 00 0d | 4e 01 | b1 09 | …`); libheif (1.15 `heif_context.cc`, `decode_hevc_aux_sei_messages`)
/// reads it from there, and nowhere else, for `heif_depth_representation_info` (heif-info's
/// "d-min", "d-max", "representation").
///
/// libheif reads the payload bits without removing emulation-prevention bytes, so the writer picks
/// mantissa lengths for which no 00 00 0x sequence arises and none needs inserting.
struct DepthRepresentationInfo: Equatable {
    enum RepresentationType: Int {
        case uniformInverseZ = 0, uniformDisparity = 1, uniformZ = 2, nonuniformDisparity = 3
    }

    var type: RepresentationType
    var zNear: Double? = nil
    var zFar: Double? = nil
    var dMin: Double? = nil
    var dMax: Double? = nil

    /// The bytes that follow the URN's NUL in `auxC`.
    func auxCSubtype() -> [UInt8] {
        for mantissaLength in [16, 17, 18, 19, 20, 21, 22, 23, 15, 14, 13, 12, 24, 25, 26, 27, 28] {
            let nal = seiNAL(mantissaLength: mantissaLength)
            if !needsEmulationPrevention(nal.dropFirst(2)) {
                return bigEndian(UInt32(nal.count + 4)) + bigEndian(UInt32(nal.count)) + nal
            }
        }
        return []       // unreachable in practice; an empty subtype is valid (no SEI)
    }

    private func seiNAL(mantissaLength: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(zNear != nil ? 1 : 0, 1)
        bits.write(zFar != nil ? 1 : 0, 1)
        bits.write(dMin != nil ? 1 : 0, 1)
        bits.write(dMax != nil ? 1 : 0, 1)
        bits.writeUE(type.rawValue)
        if dMin != nil || dMax != nil { bits.writeUE(0) }          // disparity_ref_view_id
        for value in [zNear, zFar, dMin, dMax] {
            if let value { Self.writeElement(value, mantissaLength: mantissaLength, to: &bits) }
        }
        bits.write(1, 1)                                           // rbsp stop bit, then zero alignment
        let payload = bits.bytes
        return [0x4E, 0x01, 177, UInt8(payload.count)] + payload  // prefix SEI (type 39), layer 0, tid 1
    }

    /// depth_rep_info_element: sign, 7-bit exponent, 5-bit mantissa length − 1, mantissa; value
    /// 2^(e−31)·(1 + n/2^v) for 0 < e < 127, 2^−(30+v)·n for e = 0.
    static func writeElement(_ value: Double, mantissaLength v: Int, to bits: inout BitWriter) {
        let magnitude = abs(value)
        var exponent = 0, mantissa = 0
        if magnitude.isFinite, magnitude >= 0x1p-30 {
            exponent = Int(magnitude.exponent) + 31
            let fraction = magnitude.significand - 1          // significand in [1, 2)
            mantissa = Int((fraction * Double(1 << v)).rounded())
            if mantissa == 1 << v { mantissa = 0; exponent += 1 }
            if exponent > 126 { exponent = 126; mantissa = (1 << v) - 1 }
        } else if magnitude.isFinite {
            mantissa = min((1 << v) - 1, Int((magnitude * Double(sign: .plus, exponent: 30 + v, significand: 1)).rounded()))
        }
        bits.write(value < 0 ? 1 : 0, 1)
        bits.write(exponent, 7)
        bits.write(v - 1, 5)
        bits.write(mantissa, v)
    }

    /// Parses the `auxC` subtype bytes; nil when they hold no depth representation SEI or are malformed.
    init?(auxCSubtype b: [UInt8]) {
        guard b.count >= 8 + 4 else { return nil }
        let nalLength = Int(b[4]) << 24 | Int(b[5]) << 16 | Int(b[6]) << 8 | Int(b[7])
        guard nalLength >= 4, nalLength <= b.count - 8, (b[8] >> 1) & 0x3F == 39 || (b[8] >> 1) & 0x3F == 40,
              b[10] == 177 else { return nil }
        var r = BitReader(Array(b[12..<(8 + nalLength)]))
        guard let flags = r.read(4), let t = r.readUE(), let type = RepresentationType(rawValue: t) else { return nil }
        self.type = type
        if flags & 3 != 0 { guard r.readUE() != nil else { return nil } }
        func element() -> Double? {
            guard let s = r.read(1), let e = r.read(7), let l = r.read(5), let n = r.read(l + 1) else { return nil }
            let v = l + 1
            let x = e > 0 ? Double(sign: .plus, exponent: e - 31, significand: 1 + Double(n) / Double(1 << v))
                          : Double(n) * Double(sign: .plus, exponent: -(30 + v), significand: 1)
            return s == 1 ? -x : x
        }
        if flags & 8 != 0 { guard let x = element() else { return nil }; zNear = x }
        if flags & 4 != 0 { guard let x = element() else { return nil }; zFar = x }
        if flags & 2 != 0 { guard let x = element() else { return nil }; dMin = x }
        if flags & 1 != 0 { guard let x = element() else { return nil }; dMax = x }
    }

    init(type: RepresentationType, zNear: Double? = nil, zFar: Double? = nil, dMin: Double? = nil, dMax: Double? = nil) {
        self.type = type
        self.zNear = zNear
        self.zFar = zFar
        self.dMin = dMin
        self.dMax = dMax
    }

    private func needsEmulationPrevention(_ bytes: ArraySlice<UInt8>) -> Bool {
        var zeros = 0
        for b in bytes {
            if zeros >= 2, b <= 3 { return true }
            zeros = b == 0 ? zeros + 1 : 0
        }
        return false
    }

    private func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var used = 8

        mutating func write(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) {
                if used == 8 { bytes.append(0); used = 0 }
                if (value >> i) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used) }
                used += 1
            }
        }

        /// Exp-Golomb ue(v).
        mutating func writeUE(_ value: Int) {
            let code = value + 1
            let length = Int.bitWidth - code.leadingZeroBitCount
            write(0, length - 1)
            write(code, length)
        }
    }

    struct BitReader {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func read(_ count: Int) -> Int? {
            guard count <= 32, position + count <= bytes.count * 8 else { return nil }
            var v = 0
            for _ in 0..<count {
                v = v << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return v
        }

        mutating func readUE() -> Int? {
            var zeros = 0
            while true {
                guard let bit = read(1) else { return nil }
                if bit == 1 { break }
                zeros += 1
                guard zeros < 31 else { return nil }
            }
            guard let rest = read(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }
    }
}
