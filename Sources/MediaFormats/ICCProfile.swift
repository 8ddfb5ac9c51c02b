import CaptureCore
import Foundation

/// Small hand-built ICC v4 matrix/TRC display profiles (about 500 bytes), like the compact
/// profiles browsers and cameras embed.
public enum ICCProfile {
    /// Small hand-built ICC v4 matrix/TRC display profiles: sRGB and Display P3 (D50-adapted
    /// colorants via Bradford, parametric sRGB TRC, desc 'sRGB IEC61966-2.1' / 'Display P3').
    /// Accepted by lcms and exiftool.
    public static func data(for colorSpace: ColorSpace) -> Data {
        switch colorSpace {
        case .sRGB: return build(colorSpace, description: "sRGB IEC61966-2.1")
        case .displayP3: return build(colorSpace, description: "Display P3")
        }
    }

    /// The ICC profile description ('desc') of `profile`, if it is a profile with an ASCII,
    /// mluc or v2 text description.
    public static func description(of profile: Data) -> String? {
        let r = ByteReader(profile)
        guard r.count >= 132, r.matches(Array("acsp".utf8), at: 36), let count = try? r.u32(128) else { return nil }
        for k in 0..<min(Int(count), (r.count - 132) / 12) {
            let e = 132 + 12 * k
            guard r.matches(Array("desc".utf8), at: e) else { continue }
            return try? text(r, entry: e)
        }
        return nil
    }

    /// The text of the 'desc' tag whose table entry is at `e`.
    private static func text(_ r: ByteReader, entry e: Int) throws -> String? {
        let off = Int(try r.u32(e + 4)), size = Int(try r.u32(e + 8))
        guard size >= 12, r.contains(off, size) else { return nil }
        switch try r.fourCC(off) {
        case "mluc":
            guard size >= 28 else { return nil }
            let len = Int(try r.u32(off + 20)), start = off + Int(try r.u32(off + 24))
            guard r.contains(start, len) else { return nil }
            let units = try stride(from: start, to: start + len - 1, by: 2).map { try r.u16($0) }
            return String(decoding: units, as: UTF16.self)
        case "desc":
            let len = Int(try r.u32(off + 8))
            return String(decoding: try r.slice(off + 12, len).prefix { $0 != 0 }, as: UTF8.self)
        default:
            return nil
        }
    }

    // MARK: - Construction

    /// ICC PCS illuminant D50 as stored in every profile header.
    static let d50 = SIMD3<Double>(0.9642, 1.0, 0.8249)

    /// Bradford chromatic adaptation from white `source` to white `target` (XYZ).
    static func bradford(from source: SIMD3<Double>, to target: SIMD3<Double>) -> Matrix3 {
        let m = Matrix3([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
        let s = m * source, t = m * target
        return m.inverse! * Matrix3.diagonal(t.x / s.x, t.y / s.y, t.z / s.z) * m
    }

    private static func build(_ space: ColorSpace, description: String) -> Data {
        let toXYZ = space.toXYZ
        let white = toXYZ * SIMD3<Double>(1, 1, 1)
        let adapt = bradford(from: white, to: d50)
        let colorants = adapt * toXYZ   // columns: D50 XYZ of R, G, B

        func xyz(_ v: SIMD3<Double>) -> [UInt8] { tagType("XYZ ") + s15(v.x) + s15(v.y) + s15(v.z) }
        func column(_ c: Int) -> SIMD3<Double> { SIMD3(colorants[0, c], colorants[1, c], colorants[2, c]) }
        // Parametric curve type 3 = the sRGB piecewise curve (Display P3 shares it).
        let trc = tagType("para") + [0, 3, 0, 0] + s15(2.4) + s15(1 / 1.055) + s15(0.055 / 1.055) + s15(1 / 12.92) + s15(0.04045)
        let chad = tagType("sf32") + (0..<9).flatMap { s15(adapt.m[$0]) }

        let tags: [(String, [UInt8])] = [
            ("desc", mluc(description)),
            ("cprt", mluc("No copyright, use freely")),
            ("wtpt", xyz(d50)),
            ("chad", chad),
            ("rXYZ", xyz(column(0))),
            ("gXYZ", xyz(column(1))),
            ("bXYZ", xyz(column(2))),
            ("rTRC", trc),
            ("gTRC", trc),
            ("bTRC", trc),
        ]
        // Tag table, then data 4-byte aligned; identical data (the three TRCs) is shared.
        var table: [UInt8] = be32(UInt32(tags.count))
        var body: [UInt8] = []
        var placed: [[UInt8]: Int] = [:]
        let dataStart = 128 + 4 + 12 * tags.count
        for (sig, data) in tags {
            let offset: Int
            if let existing = placed[data] {
                offset = existing
            } else {
                offset = dataStart + body.count
                placed[data] = offset
                body += data
                while body.count % 4 != 0 { body.append(0) }
            }
            table += Array(sig.utf8) + be32(UInt32(offset)) + be32(UInt32(data.count))
        }
        let total = dataStart + body.count
        var header = [UInt8](repeating: 0, count: 128)
        func put(_ bytes: [UInt8], at o: Int) { header.replaceSubrange(o..<(o + bytes.count), with: bytes) }
        put(be32(UInt32(total)), at: 0)
        put([4, 0x30, 0, 0], at: 8)                       // version 4.3
        put(Array("mntr".utf8), at: 12)
        put(Array("RGB ".utf8), at: 16)
        put(Array("XYZ ".utf8), at: 20)
        put(be16(2022) + be16(1) + be16(1) + be16(0) + be16(0) + be16(0), at: 24)  // fixed date: deterministic bytes
        put(Array("acsp".utf8), at: 36)
        put(be32(0), at: 64)                              // perceptual intent
        put(s15(d50.x) + s15(d50.y) + s15(d50.z), at: 68)
        return Data(header + table + body)
    }

    private static func tagType(_ sig: String) -> [UInt8] { Array(sig.utf8) + [0, 0, 0, 0] }

    private static func mluc(_ text: String) -> [UInt8] {
        let utf16 = text.utf16.flatMap { be16($0) }
        return tagType("mluc") + be32(1) + be32(12) + Array("enUS".utf8) + be32(UInt32(utf16.count)) + be32(28) + utf16
    }

    private static func s15(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }
    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
