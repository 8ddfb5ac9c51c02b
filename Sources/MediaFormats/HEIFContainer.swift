import Foundation

/// The item structure of a HEIF file (ISO/IEC 23008-12): items with their data, shared
/// properties, and references, serialised as `ftyp`, `meta` and `mdat`. Knows nothing about
/// HEVC; the encoder fills it with coded tiles, the grid, thumbnail and metadata items.
struct HEIFContainer {
    struct Item {
        var id: UInt16
        var type: String                 // 'hvc1', 'grid', 'Exif', 'mime', …
        var name = ""
        var contentType: String? = nil   // for 'mime' items
        var hidden = false               // infe flags bit 0: not meant to be shown on its own
        var data: [UInt8]
        var inIdat = false               // construction method 1 (small derived-item payloads)
        var properties: [(index: Int, essential: Bool)] = []
    }

    struct Reference {
        var type: String                 // 'dimg', 'thmb', 'cdsc', 'auxl', …
        var from: UInt16
        var to: [UInt16]
    }

    var majorBrand = "heic"
    var compatibleBrands = ["mif1", "heic"]
    var primaryID: UInt16 = 1
    private(set) var items: [Item] = []
    private(set) var properties: [[UInt8]] = []
    var references: [Reference] = []

    /// Adds an item; IDs must be unique and non-zero.
    mutating func add(_ item: Item) { items.append(item) }

    /// Adds `box` to `ipco` unless an identical property is already there; its 1-based index.
    mutating func property(_ box: [UInt8]) -> Int {
        if let i = properties.firstIndex(of: box) { return i + 1 }
        properties.append(box)
        return properties.count
    }

    /// Associates property `index` with item `id`, in the order given (transformations last).
    mutating func associate(_ id: UInt16, _ index: Int, essential: Bool = false) {
        guard let i = items.firstIndex(where: { $0.id == id }) else { return }
        items[i].properties.append((index, essential))
    }

    /// The whole file.
    func serialized() throws -> Data {
        let sorted = items.sorted { $0.id < $1.id }
        guard Set(sorted.map(\.id)).count == sorted.count, !sorted.contains(where: { $0.id == 0 }) else {
            throw MediaFormatError.encoderFailed("HEIF item IDs are not unique")
        }
        let mdatPayload = sorted.filter { !$0.inIdat }.reduce(0) { $0 + $1.data.count }
        guard mdatPayload + 8 <= Int(UInt32.max) / 2, properties.count < 32768 else {
            throw MediaFormatError.unsupported("HEIF payload of \(mdatPayload) bytes is too large")
        }
        var ftyp = BMFFWriter()
        ftyp.box("ftyp") { w in
            w.fourCC(majorBrand)
            w.u32(0)
            for b in compatibleBrands { w.fourCC(b) }
        }
        // iloc fields have fixed widths, so the meta box size does not depend on the offsets:
        // write it once to learn its size, then again with the real mdat position.
        let probe = meta(sorted, mdatStart: 0)
        let mdatStart = ftyp.count + probe.count + 8
        var file = ftyp
        file.append(meta(sorted, mdatStart: mdatStart))
        file.box("mdat") { w in
            for item in sorted where !item.inIdat { w.append(item.data) }
        }
        return file.data
    }

    private func meta(_ items: [Item], mdatStart: Int) -> [UInt8] {
        var w = BMFFWriter()
        w.fullBox("meta") { w in
            w.fullBox("hdlr") { w in
                w.u32(0)
                w.fourCC("pict")
                w.u32(0); w.u32(0); w.u32(0)
                w.cString("")
            }
            w.fullBox("pitm") { $0.u16(primaryID) }
            w.fullBox("iloc", version: 1) { w in
                w.u8(0x44)                       // offset_size 4, length_size 4
                w.u8(0x00)                       // base_offset_size 0, index_size 0
                w.u16(UInt16(items.count))
                var mdatOffset = mdatStart, idatOffset = 0
                for item in items {
                    w.u16(item.id)
                    w.u16(item.inIdat ? 1 : 0)   // construction_method: 0 file, 1 idat
                    w.u16(0)                     // data_reference_index: this file
                    w.u16(1)                     // extent_count
                    if item.inIdat {
                        w.u32(UInt32(idatOffset)); idatOffset += item.data.count
                    } else {
                        w.u32(UInt32(mdatOffset)); mdatOffset += item.data.count
                    }
                    w.u32(UInt32(item.data.count))
                }
            }
            w.fullBox("iinf") { w in
                w.u16(UInt16(items.count))
                for item in items {
                    w.fullBox("infe", version: 2, flags: item.hidden ? 1 : 0) { w in
                        w.u16(item.id)
                        w.u16(0)                 // item_protection_index
                        w.fourCC(item.type)
                        w.cString(item.name)
                        if let contentType = item.contentType { w.cString(contentType) }
                    }
                }
            }
            if !references.isEmpty {
                w.fullBox("iref") { w in
                    for r in references {
                        w.box(r.type) { w in
                            w.u16(r.from)
                            w.u16(UInt16(r.to.count))
                            for t in r.to { w.u16(t) }
                        }
                    }
                }
            }
            w.box("iprp") { w in
                w.box("ipco") { w in for p in properties { w.append(p) } }
                let wide = properties.count > 127
                w.fullBox("ipma", flags: wide ? 1 : 0) { w in
                    let associated = items.filter { !$0.properties.isEmpty }
                    w.u32(UInt32(associated.count))
                    for item in associated {
                        w.u16(item.id)
                        w.u8(UInt8(item.properties.count))
                        for (index, essential) in item.properties {
                            if wide { w.u16(UInt16(index) | (essential ? 0x8000 : 0)) }
                            else { w.u8(UInt8(index) | (essential ? 0x80 : 0)) }
                        }
                    }
                }
            }
            let idat = items.filter(\.inIdat)
            if !idat.isEmpty {
                w.box("idat") { w in for item in idat { w.append(item.data) } }
            }
        }
        return w.bytes
    }
}
