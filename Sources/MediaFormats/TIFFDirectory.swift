import Foundation

/// One IFD entry with its value already serialised little-endian.
struct TIFFEntry {
    var tag: UInt16
    var type: TIFFType
    var count: UInt32
    var bytes: [UInt8]
}

/// A little-endian IFD under construction. Entries are kept sorted by tag on output, values
/// longer than 4 bytes go to the value area after the directory, each padded to a word boundary.
struct TIFFDirectory {
    private(set) var entries: [TIFFEntry] = []

    var isEmpty: Bool { entries.isEmpty }

    /// Bytes this directory occupies: count, entries, next-IFD offset and the value area.
    var byteSize: Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.bytes.count > 4 ? ($1.bytes.count + 1) & ~1 : 0) }
    }

    mutating func set(_ entry: TIFFEntry) {
        entries.removeAll { $0.tag == entry.tag }
        entries.append(entry)
    }

    mutating func ascii(_ tag: UInt16, _ value: String?) {
        guard let value else { return }
        var b = Array(value.utf8)
        b.append(0)
        set(TIFFEntry(tag: tag, type: .ascii, count: UInt32(b.count), bytes: b))
    }

    mutating func short(_ tag: UInt16, _ value: UInt16?) { shorts(tag, value.map { [$0] }) }

    mutating func shorts(_ tag: UInt16, _ values: [UInt16]?) {
        guard let values else { return }
        set(TIFFEntry(tag: tag, type: .short, count: UInt32(values.count), bytes: values.flatMap { le16($0) }))
    }

    mutating func long(_ tag: UInt16, _ value: UInt32?) {
        guard let value else { return }
        set(TIFFEntry(tag: tag, type: .long, count: 1, bytes: le32(value)))
    }

    mutating func bytes(_ tag: UInt16, type: TIFFType, _ value: [UInt8]?) {
        guard let value else { return }
        set(TIFFEntry(tag: tag, type: type, count: UInt32(value.count), bytes: value))
    }

    mutating func rational(_ tag: UInt16, _ value: Double?) {
        guard let value else { return }
        rationals(tag, [TIFFRational.unsigned(value)])
    }

    mutating func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) {
        set(TIFFEntry(tag: tag, type: .rational, count: UInt32(values.count),
                      bytes: values.flatMap { le32($0.0) + le32($0.1) }))
    }

    mutating func srational(_ tag: UInt16, _ value: Double?) {
        guard let value else { return }
        let (n, d) = TIFFRational.signed(value)
        set(TIFFEntry(tag: tag, type: .srational, count: 1,
                      bytes: le32(UInt32(bitPattern: n)) + le32(UInt32(bitPattern: d))))
    }

    /// Serialises the directory, placed at absolute offset `offset` of the TIFF stream.
    func serialize(at offset: Int, next: UInt32) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var out = le16(UInt16(sorted.count))
        var values: [UInt8] = []
        var valueOffset = offset + 2 + 12 * sorted.count + 4
        for e in sorted {
            out += le16(e.tag) + le16(e.type.rawValue) + le32(e.count)
            if e.bytes.count <= 4 {
                out += e.bytes + [UInt8](repeating: 0, count: 4 - e.bytes.count)
            } else {
                out += le32(UInt32(valueOffset))
                values += e.bytes
                if e.bytes.count & 1 == 1 { values.append(0) }
                valueOffset = offset + 2 + 12 * sorted.count + 4 + values.count
            }
        }
        out += le32(next)
        return out + values
    }
}

/// Rational approximations that print the way cameras write them (1/60, 9/5, 399/100, 1/3).
enum TIFFRational {
    static let denominators: [Int64] = [1, 2, 3, 4, 5, 6, 8, 10, 100, 1000]

    static func unsigned(_ value: Double) -> (UInt32, UInt32) {
        guard value.isFinite, value > 0 else { return (0, 1) }
        if value < 1 {
            let inv = 1 / value
            if abs(inv - inv.rounded()) < 1e-3 * inv, inv.rounded() <= Double(UInt32.max) {
                return (1, UInt32(inv.rounded()))
            }
        }
        let (n, d) = fraction(value, limit: Double(UInt32.max))
        return (UInt32(n), UInt32(d))
    }

    static func signed(_ value: Double) -> (Int32, Int32) {
        guard value.isFinite else { return (0, 1) }
        let (n, d) = fraction(abs(value), limit: Double(Int32.max))
        return (value < 0 ? -Int32(n) : Int32(n), Int32(d))
    }

    private static func fraction(_ v: Double, limit: Double) -> (Int64, Int64) {
        for d in denominators {
            let scaled = v * Double(d)
            if abs(scaled - scaled.rounded()) < 1e-4 * max(1, scaled), scaled.rounded() <= limit {
                return reduce(Int64(scaled.rounded()), d)
            }
        }
        var d: Int64 = 10_000
        while v * Double(d) > limit, d > 1 { d /= 10 }
        return reduce(Int64(min((v * Double(d)).rounded(), limit)), d)
    }

    private static func reduce(_ n: Int64, _ d: Int64) -> (Int64, Int64) {
        var a = n, b = d
        while b != 0 { (a, b) = (b, a % b) }
        return a > 1 ? (n / a, d / a) : (n, d)
    }
}

@inline(__always) func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
@inline(__always) func le32(_ v: UInt32) -> [UInt8] {
    [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
}
