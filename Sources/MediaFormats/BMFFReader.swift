import Foundation

/// Reads ISO base media file format boxes, bounds-checked: enough of a HEIF `meta` box to list
/// items and properties (libheif 1.15 has no API for the item table). Used by `HEIFDecoder.info`
/// and tests.
struct BMFFReader {
    struct Box {
        var type: String
        /// Body range (after the size/type header) within the reader's bytes.
        var body: Range<Int>
    }

    struct Item: Equatable {
        var id: UInt32
        var type: String
        var hidden: Bool
    }

    let bytes: [UInt8]

    init(_ data: Data) { bytes = Array(data) }

    /// The boxes laid end to end in `range` (the whole file by default).
    func boxes(in range: Range<Int>? = nil) throws -> [Box] {
        let range = range ?? 0..<bytes.count
        var result: [Box] = []
        var i = range.lowerBound
        while i < range.upperBound {
            guard i + 8 <= range.upperBound else { throw MediaFormatError.invalidImage("box header overruns its container") }
            var size = Int(u32(i))
            var header = 8
            if size == 1 {
                guard i + 16 <= range.upperBound else { throw MediaFormatError.invalidImage("box header overruns its container") }
                let big = UInt64(u32(i + 8)) << 32 | UInt64(u32(i + 12))
                guard big <= UInt64(Int.max) else { throw MediaFormatError.invalidImage("box size overflows") }
                size = Int(big)
                header = 16
            } else if size == 0 {
                size = range.upperBound - i
            }
            guard size >= header, i + size <= range.upperBound else { throw MediaFormatError.invalidImage("box overruns its container") }
            result.append(Box(type: fourCC(i + 4), body: (i + header)..<(i + size)))
            i += size
        }
        return result
    }

    /// The first box of `type` in `range`.
    func box(_ type: String, in range: Range<Int>? = nil) throws -> Box? {
        try boxes(in: range).first { $0.type == type }
    }

    /// The `meta` box's children (its body after version and flags).
    func metaChildren() throws -> [Box] {
        guard let meta = try box("meta"), meta.body.count >= 4 else { throw MediaFormatError.invalidImage("no HEIF meta box") }
        return try boxes(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
    }

    /// The primary item ID and the items of `iinf`.
    func items() throws -> (primary: UInt32, items: [Item]) {
        let children = try metaChildren()
        guard let pitm = children.first(where: { $0.type == "pitm" }), let iinf = children.first(where: { $0.type == "iinf" }) else {
            throw MediaFormatError.invalidImage("HEIF meta box lacks pitm or iinf")
        }
        try need(pitm.body, 6)
        let primary = bytes[pitm.body.lowerBound] == 0 ? UInt32(u16(pitm.body.lowerBound + 4)) : u32(pitm.body.lowerBound + 4)
        try need(iinf.body, 6)
        let countSize = bytes[iinf.body.lowerBound] == 0 ? 2 : 4
        var items: [Item] = []
        for infe in try boxes(in: (iinf.body.lowerBound + 4 + countSize)..<iinf.body.upperBound) where infe.type == "infe" {
            let b = infe.body.lowerBound
            try need(infe.body, 12)
            let version = bytes[b], hidden = bytes[b + 3] & 1 == 1
            switch version {
            case 2: items.append(Item(id: UInt32(u16(b + 4)), type: fourCC(b + 8), hidden: hidden))
            case 3:
                try need(infe.body, 14)
                items.append(Item(id: u32(b + 4), type: fourCC(b + 10), hidden: hidden))
            default: continue
            }
        }
        return (primary, items)
    }

    /// Box types in `ipco`, in order (property index i + 1).
    func propertyTypes() throws -> [String] {
        guard let iprp = try metaChildren().first(where: { $0.type == "iprp" }),
              let ipco = try box("ipco", in: iprp.body) else { return [] }
        return try boxes(in: ipco.body).map(\.type)
    }

    private func need(_ body: Range<Int>, _ count: Int) throws {
        guard body.count >= count else { throw MediaFormatError.invalidImage("HEIF box too short") }
    }

    func u16(_ o: Int) -> UInt16 { UInt16(bytes[o]) << 8 | UInt16(bytes[o + 1]) }
    func u32(_ o: Int) -> UInt32 { UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3]) }
    func fourCC(_ o: Int) -> String { String(decoding: bytes[o..<(o + 4)], as: UTF8.self) }
}
