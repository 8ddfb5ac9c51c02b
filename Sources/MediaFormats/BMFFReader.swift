import Foundation

/// Reads ISO base media file format boxes (big-endian, bounds-checked) through `ByteReader`:
/// the box walker under `HEIFStructure`. A box that runs past the end of the file is
/// `.truncated`; one that runs past its parent box is `.invalidImage`.
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

    let reader: ByteReader
    var bytes: [UInt8] { reader.bytes }

    init(_ data: Data) { reader = ByteReader(data) }

    /// The boxes laid end to end in `range` (the whole file by default).
    func boxes(in range: Range<Int>? = nil) throws -> [Box] {
        try boxes(in: range, stoppingAtDamage: false)
    }

    /// The whole boxes before the first that is damaged (or runs past the end) in `range` (the top level by default):
    /// what a reader that ignores trailing bytes sees (a QuickTime sample description's boxes may end in a 4-byte 0).
    func leadingWholeBoxes(in range: Range<Int>? = nil) -> [Box] {
        (try? boxes(in: range, stoppingAtDamage: true)) ?? []
    }

    private func boxes(in range: Range<Int>?, stoppingAtDamage: Bool) throws -> [Box] {
        let range = range ?? 0..<reader.count
        var result: [Box] = []
        var i = range.lowerBound
        let overrun: MediaFormatError = range.upperBound == reader.count ? .truncated : .invalidImage("box overruns its container")
        while i < range.upperBound {
            let box: Box
            do {
                box = try self.box(at: i, in: range, overrun: overrun)
            } catch where stoppingAtDamage {
                return result
            }
            result.append(box)
            i = box.body.upperBound
        }
        return result
    }

    /// The box starting at `i` within `range`.
    private func box(at i: Int, in range: Range<Int>, overrun: MediaFormatError) throws -> Box {
        guard i + 8 <= range.upperBound else { throw overrun }
        var size = try reader.u32(i)
        var header = 8
        if size == 1 {
            guard i + 16 <= range.upperBound else { throw overrun }
            let big = try reader.u64(i + 8)
            guard big <= UInt64(Int32.max) else { throw MediaFormatError.unsupported("box of \(big) bytes") }
            size = UInt32(big)
            header = 16
        } else if size == 0 {
            size = UInt32(clamping: range.upperBound - i)
        }
        let length = Int(size)
        guard length >= header else { throw MediaFormatError.invalidImage("box size \(length) smaller than its header") }
        guard length <= range.upperBound - i else { throw overrun }
        return Box(type: try reader.fourCC(i + 4), body: (i + header)..<(i + length))
    }

    /// The first box of `type` in `range`.
    func box(_ type: String, in range: Range<Int>? = nil) throws -> Box? {
        try boxes(in: range).first { $0.type == type }
    }

    /// The box at the end of `path` (each type the first of its kind inside the one before), starting in `range`.
    func box(path: [String], in range: Range<Int>) throws -> Box? {
        var current = range
        var found: Box?
        for type in path {
            found = try box(type, in: current)
            guard let box = found else { return nil }
            current = box.body
        }
        return found
    }

    /// The body of a full box after its version and flags, with the version.
    func fullBody(_ box: Box) throws -> (version: UInt8, flags: UInt32, body: Range<Int>) {
        guard box.body.count >= 4 else { throw MediaFormatError.invalidImage("'\(box.type)' box too short") }
        let word = try reader.u32(box.body.lowerBound)
        return (UInt8(word >> 24), word & 0xFF_FFFF, (box.body.lowerBound + 4)..<box.body.upperBound)
    }

    /// The `meta` box's children (its body after version and flags).
    func metaChildren() throws -> [Box] {
        guard let meta = try box("meta") else { throw MediaFormatError.invalidImage("no HEIF meta box") }
        return try boxes(in: try fullBody(meta).body)
    }

    /// The primary item ID and the items of `iinf`.
    func items() throws -> (primary: UInt32, items: [Item]) {
        let s = try HEIFStructure.parse(Data(bytes))
        return (s.primaryItemID, s.items.map { Item(id: $0.id, type: $0.type, hidden: $0.hidden) })
    }

    /// Box types in `ipco`, in order (property index i + 1).
    func propertyTypes() throws -> [String] {
        guard let iprp = try metaChildren().first(where: { $0.type == "iprp" }),
              let ipco = try box("ipco", in: iprp.body) else { return [] }
        return try boxes(in: ipco.body).map(\.type)
    }

    func u16(_ o: Int) throws -> UInt16 { try reader.u16(o) }
    func u32(_ o: Int) throws -> UInt32 { try reader.u32(o) }
    func fourCC(_ o: Int) throws -> String { try reader.fourCC(o) }
}
