import CaptureCore
import Foundation

/// The item structure of a HEIF/HEIC file, parsed from its boxes (ISO/IEC 14496-12 and
/// 23008-12: `ftyp`, `meta` with `pitm`, `iinf`, `iloc`, `iref`, `iprp`/`ipco`/`ipma`, `idat`):
/// the primary image's real size, its thumbnail item, its EXIF and XMP items and its ICC profile,
/// without decoding any pixels. Every size, count and offset is checked against the file;
/// item data that lies past the end of the file makes the whole file `.truncated`.
public struct HEIFStructure: Sendable, Equatable {
    public var majorBrand: String
    public var compatibleBrands: [String]
    public var primaryItemID: UInt32
    public var items: [HEIFItem]
    /// The primary item (its type is "grid" for tiled images).
    public var primary: HEIFItem
    /// The primary image's size as displayed (after `irot`).
    public var width: Int
    public var height: Int
    /// The thumbnail item of the primary image (`thmb` reference), if any.
    public var thumbnail: HEIFItem?
    /// The TIFF stream of the primary image's Exif item (after its 4-byte header offset).
    public var exif: Data?
    /// The XMP packet of the primary image's `application/rdf+xml` item.
    public var xmp: Data?
    /// The ICC profile of the primary image's `colr` (`prof` or `rICC`) property.
    public var iccProfile: Data?
    /// nclx colour primaries (1 BT.709/sRGB, 12 P3-D65) of the primary image's `colr nclx`.
    public var colorPrimaries: Int?
    /// For a `grid` primary: its descriptor's rows, columns and output size, and the items it is
    /// derived from (`dimg`), which decoders allocate for before they check `ispe`.
    public var grid: (rows: Int, columns: Int, width: Int, height: Int)?
    public var gridTiles: [HEIFItem]
    /// The primary image's auxiliary images (`auxl`), with their `auxC` type and XMP.
    public var auxiliaryImages: [HEIFAuxiliaryImage] = []

    public static func == (a: HEIFStructure, b: HEIFStructure) -> Bool {
        a.majorBrand == b.majorBrand && a.compatibleBrands == b.compatibleBrands && a.primaryItemID == b.primaryItemID
            && a.items == b.items && a.primary == b.primary && a.width == b.width && a.height == b.height
            && a.thumbnail == b.thumbnail && a.exif == b.exif && a.xmp == b.xmp && a.iccProfile == b.iccProfile
            && a.colorPrimaries == b.colorPrimaries && a.grid.map { [$0.rows, $0.columns, $0.width, $0.height] } == b.grid.map {
                [$0.rows, $0.columns, $0.width, $0.height] } && a.gridTiles == b.gridTiles
            && a.auxiliaryImages == b.auxiliaryImages
    }

    /// Throws unless the primary image, its grid output and every tile fit `ImageLimits`:
    /// the check to make before handing the file to a decoder.
    public func checkDecodable() throws {
        // libheif asserts (aborts the process) on a derived image whose source is not an image it codes (an `iden`
        // of an unknown item type): only coded images and grids of them are handed to it.
        guard Self.codedImageTypes.contains(primary.type) || primary.type == "grid" else {
            throw MediaFormatError.unsupported("HEIF primary image of type '\(primary.type)'")
        }
        if let tile = gridTiles.first(where: { !Self.codedImageTypes.contains($0.type) }) {
            throw MediaFormatError.unsupported("HEIF grid tile of type '\(tile.type)'")
        }
        try ImageLimits.check(width: width, height: height, format: "HEIF image")
        if let grid {
            try ImageLimits.check(width: grid.width, height: grid.height, format: "HEIF grid")
            try ImageLimits.check(width: grid.columns, height: grid.rows, format: "HEIF grid of tiles")
        }
        if let grid { try Self.checkTiling(grid, tiles: gridTiles) }
        var total = 0
        for tile in gridTiles {
            guard let w = tile.width, let h = tile.height else { throw MediaFormatError.invalidImage("HEIF tile \(tile.id) has no ispe") }
            let (sum, overflow) = total.addingReportingOverflow(try ImageLimits.check(width: w, height: h, format: "HEIF tile"))
            guard !overflow, sum <= ImageLimits.maxPixels else { throw MediaFormatError.unsupported("HEIF tiles add up to more than \(ImageLimits.maxPixels) pixels") }
            total = sum
        }
    }

    /// Item types of coded images libheif decodes here (HEVC, AV1).
    static let codedImageTypes: Set<String> = ["hvc1", "av01"]

    /// ISO/IEC 23008-12 §6.6.2.3: a grid is `rows × columns` tiles of one size whose mosaic covers the
    /// output and is trimmed by less than a tile. A grid that declares a larger output than its tiles would
    /// make libheif allocate the whole declared canvas for a few bytes of tile data, so it is refused here.
    private static func checkTiling(_ grid: (rows: Int, columns: Int, width: Int, height: Int), tiles: [HEIFItem]) throws {
        guard tiles.count == grid.rows * grid.columns else {
            throw MediaFormatError.invalidImage("HEIF grid of \(grid.columns)×\(grid.rows) has \(tiles.count) tiles")
        }
        guard let first = tiles.first, let tw = first.width, let th = first.height else {
            throw MediaFormatError.invalidImage("HEIF grid tile has no ispe")
        }
        guard tiles.allSatisfy({ $0.width == tw && $0.height == th }) else {
            throw MediaFormatError.invalidImage("HEIF grid tiles differ in size")
        }
        guard grid.width <= grid.columns * tw, grid.height <= grid.rows * th,
              grid.width > (grid.columns - 1) * tw, grid.height > (grid.rows - 1) * th else {
            throw MediaFormatError.invalidImage("HEIF grid output \(grid.width)×\(grid.height) does not match \(grid.columns)×\(grid.rows) tiles of \(tw)×\(th)")
        }
    }

    /// The thumbnail's displayed size.
    public var thumbnailSize: Size? {
        guard let t = thumbnail, let w = t.width, let h = t.height else { return nil }
        return t.rotation % 2 == 1 ? Size(width: h, height: w) : Size(width: w, height: h)
    }

    /// Parses `data`; throws `.invalidImage` when it is not a HEIF image file, `.truncated`
    /// when boxes or item data run past its end.
    public static func parse(_ data: Data) throws -> HEIFStructure {
        let bmff = BMFFReader(data)
        let r = bmff.reader
        guard r.count >= 12 else { throw r.count == 0 ? MediaFormatError.invalidImage("empty data") : MediaFormatError.truncated }
        guard (try? r.fourCC(4)) == "ftyp" else { throw MediaFormatError.invalidImage("not an ISO media file (no ftyp box)") }
        let top: [BMFFReader.Box]
        do {
            top = try bmff.boxes()
        } catch {
            // Bytes after the last whole box that form no box (data appended to the file) are passed over, as libheif
            // passes them, once the boxes before them hold the meta box; a file cut short inside its meta box, or any
            // other damage before it, stays an error (and item data past the end is found missing below).
            let whole = bmff.leadingWholeBoxes()
            guard whole.contains(where: { $0.type == "meta" }) else { throw error }
            top = whole
        }
        guard let ftyp = top.first, ftyp.type == "ftyp", ftyp.body.count >= 8 else { throw MediaFormatError.invalidImage("bad ftyp box") }
        let major = try r.fourCC(ftyp.body.lowerBound)
        let compatible = try stride(from: ftyp.body.lowerBound + 8, to: ftyp.body.upperBound - 3, by: 4).map { try r.fourCC($0) }
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw MediaFormatError.invalidImage("no HEIF meta box") }
        let children = try bmff.boxes(in: try bmff.fullBody(meta).body)
        func child(_ type: String) -> BMFFReader.Box? { children.first { $0.type == type } }

        guard let pitm = child("pitm") else { throw MediaFormatError.invalidImage("HEIF meta box lacks pitm") }
        let p = try bmff.fullBody(pitm)
        let primaryID = p.version == 0 ? UInt32(try r.u16(p.body.lowerBound)) : try r.u32(p.body.lowerBound)

        guard let iinf = child("iinf") else { throw MediaFormatError.invalidImage("HEIF meta box lacks iinf") }
        var items = try itemInfos(bmff, iinf)
        let locations = try child("iloc").map { try itemLocations(bmff, $0) } ?? [:]
        let references = try child("iref").map { try itemReferences(bmff, $0) } ?? []
        let properties = try child("iprp").map { try itemProperties(bmff, $0) } ?? [:]
        let idat = child("idat")?.body

        for k in items.indices {
            for box in properties[items[k].id] ?? [] {
                switch box.type {
                case "ispe":
                    let b = try bmff.fullBody(box).body
                    items[k].width = Int(try r.u32(b.lowerBound))
                    items[k].height = Int(try r.u32(b.lowerBound + 4))
                case "irot":
                    guard !box.body.isEmpty else { throw MediaFormatError.invalidImage("empty irot box") }
                    items[k].rotation = Int(try r.u8(box.body.lowerBound) & 3)
                default: break
                }
            }
        }

        // Item data: construction method 0 points into the file, 1 into idat.
        func payload(_ id: UInt32) throws -> Data? {
            guard let location = locations[id] else { return nil }
            var out = Data()
            for extent in location.extents {
                let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
                guard !overflow else { throw MediaFormatError.invalidImage("item \(id) extent offset overflows") }
                switch location.method {
                case 0:
                    let length = extent.length == 0 ? r.count - start : extent.length
                    guard r.contains(start, length) else { throw MediaFormatError.truncated }
                    out.append(contentsOf: try r.slice(start, length))
                case 1:
                    guard let idat, start <= idat.count, extent.length <= idat.count - start else {
                        throw MediaFormatError.invalidImage("item \(id) lies outside idat")
                    }
                    out.append(contentsOf: try r.slice(idat.lowerBound + start, extent.length))
                default:
                    return nil
                }
            }
            return out
        }
        // Every file-based extent must lie inside the file.
        for location in locations.values where location.method == 0 {
            for extent in location.extents {
                let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
                guard !overflow, r.contains(start, extent.length) else { throw MediaFormatError.truncated }
            }
        }

        guard let primary = items.first(where: { $0.id == primaryID }) else {
            throw MediaFormatError.invalidImage("primary item \(primaryID) is not in iinf")
        }
        guard let w = primary.width, let h = primary.height else { throw MediaFormatError.invalidImage("primary item has no ispe") }
        guard w > 0, h > 0 else { throw MediaFormatError.invalidImage("primary item declares a \(w)×\(h) image") }

        func referencing(_ type: String) -> [UInt32] {
            references.filter { $0.type == type && $0.to.contains(primaryID) }.map(\.from)
        }
        let thumbnail = referencing("thmb").compactMap { id in items.first { $0.id == id } }.first
        let metadata = referencing("cdsc").compactMap { id in items.first { $0.id == id } }

        var exif: Data?
        if let item = metadata.first(where: { $0.type == "Exif" }), let raw = try payload(item.id) {
            let er = ByteReader(raw)
            guard let skip = try? er.u32(0), er.contains(4, Int(skip)), 4 + Int(skip) < raw.count else {
                throw MediaFormatError.invalidMetadata("Exif item \(item.id) has a bad TIFF header offset")
            }
            exif = raw.subdata(in: (4 + Int(skip))..<raw.count)
        }
        let xmp = try metadata.first { $0.type == "mime" && $0.contentType == "application/rdf+xml" }.flatMap { try payload($0.id) }

        var icc: Data?, primaries: Int?
        for box in properties[primaryID] ?? [] where box.type == "colr" && box.body.count >= 4 {
            switch try r.fourCC(box.body.lowerBound) {
            case "prof", "rICC": if icc == nil { icc = Data(try r.slice(box.body.lowerBound + 4, box.body.count - 4)) }
            case "nclx": primaries = Int(try r.u16(box.body.lowerBound + 4))
            default: break
            }
        }
        var grid: (rows: Int, columns: Int, width: Int, height: Int)?
        var gridTiles: [HEIFItem] = []
        if primary.type == "grid" {
            guard let descriptor = try payload(primaryID) else { throw MediaFormatError.invalidImage("grid item has no data") }
            let g = ByteReader(descriptor)
            let wide = try g.u8(1) & 1 == 1
            grid = (Int(try g.u8(2)) + 1, Int(try g.u8(3)) + 1,
                    Int(try g.unsigned(4, size: wide ? 4 : 2)), Int(try g.unsigned(wide ? 8 : 6, size: wide ? 4 : 2)))
            let ids = references.filter { $0.type == "dimg" && $0.from == primaryID }.flatMap(\.to)
            gridTiles = ids.prefix(1 << 16).compactMap { id in items.first { $0.id == id } }
        }
        var auxiliaries: [HEIFAuxiliaryImage] = []
        for id in referencing("auxl") {
            guard let item = items.first(where: { $0.id == id }),
                  let auxC = properties[id]?.first(where: { $0.type == "auxC" }) else { continue }
            let body = try bmff.fullBody(auxC).body
            let bytes = r.bytes[body]
            let urnEnd = bytes.firstIndex(of: 0) ?? bytes.endIndex
            let urn = String(decoding: bytes[..<urnEnd], as: UTF8.self)
            let subtype = urnEnd < bytes.endIndex ? Array(bytes[(urnEnd + 1)...]) : []
            let describing = references.filter { $0.type == "cdsc" && $0.to.contains(id) }.map(\.from)
            let xmpItem = items.first { describing.contains($0.id) && $0.type == "mime" && $0.contentType == "application/rdf+xml" }
            let xmp = try xmpItem.flatMap { try payload($0.id) }.map { [UInt8]($0) }
            auxiliaries.append(HEIFAuxiliaryImage(item: item, type: urn, subtype: subtype, xmp: xmp))
        }
        return HEIFStructure(majorBrand: major, compatibleBrands: compatible, primaryItemID: primaryID, items: items,
                             primary: primary, width: primary.rotation % 2 == 1 ? h : w, height: primary.rotation % 2 == 1 ? w : h,
                             thumbnail: thumbnail, exif: exif, xmp: xmp, iccProfile: icc, colorPrimaries: primaries,
                             grid: grid, gridTiles: gridTiles, auxiliaryImages: auxiliaries)
    }

    // MARK: - Boxes

    private static func itemInfos(_ bmff: BMFFReader, _ iinf: BMFFReader.Box) throws -> [HEIFItem] {
        let r = bmff.reader
        let f = try bmff.fullBody(iinf)
        let countSize = f.version == 0 ? 2 : 4
        guard f.body.count >= countSize else { throw MediaFormatError.invalidImage("iinf box too short") }
        var items: [HEIFItem] = []
        for infe in try bmff.boxes(in: (f.body.lowerBound + countSize)..<f.body.upperBound) where infe.type == "infe" {
            let e = try bmff.fullBody(infe)
            let b = e.body.lowerBound
            let id: UInt32, typeAt: Int
            switch e.version {
            case 2: id = UInt32(try r.u16(b)); typeAt = b + 4
            case 3: id = try r.u32(b); typeAt = b + 6
            default: continue
            }
            guard typeAt + 4 <= e.body.upperBound else { throw MediaFormatError.invalidImage("infe box too short") }
            let type = try r.fourCC(typeAt)
            let strings = r.bytes[(typeAt + 4)..<e.body.upperBound].split(separator: 0, omittingEmptySubsequences: false)
            let name = strings.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let contentType = type == "mime" && strings.count > 1 ? String(decoding: strings[1], as: UTF8.self) : nil
            items.append(HEIFItem(id: id, type: type, hidden: e.flags & 1 == 1, name: name, contentType: contentType,
                                  width: nil, height: nil, rotation: 0))
        }
        return items
    }

    private struct Location {
        var method: Int
        var baseOffset: Int
        var extents: [(offset: Int, length: Int)]
    }

    private static func itemLocations(_ bmff: BMFFReader, _ iloc: BMFFReader.Box) throws -> [UInt32: Location] {
        let r = bmff.reader
        let f = try bmff.fullBody(iloc)
        guard f.version <= 2 else { throw MediaFormatError.unsupported("iloc version \(f.version)") }
        var o = f.body.lowerBound
        func take(_ size: Int) throws -> Int {
            guard o + size <= f.body.upperBound else { throw MediaFormatError.invalidImage("iloc box too short") }
            let v = try r.unsigned(o, size: size)
            o += size
            guard v <= UInt64(Int32.max) else { throw MediaFormatError.unsupported("iloc value \(v) beyond 2 GB") }
            return Int(v)
        }
        let sizes = try take(2)
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 15, baseSize = sizes >> 4 & 15
        let indexSize = f.version >= 1 ? sizes & 15 : 0
        let count = try take(f.version < 2 ? 2 : 4)
        var result: [UInt32: Location] = [:]
        for _ in 0..<count {
            let id = UInt32(try take(f.version < 2 ? 2 : 4))
            let method = f.version >= 1 ? try take(2) & 15 : 0
            _ = try take(2)                                     // data_reference_index
            let base = try take(baseSize)
            let extentCount = try take(2)
            var extents: [(Int, Int)] = []
            for _ in 0..<extentCount {
                _ = try take(indexSize)
                extents.append((try take(offsetSize), try take(lengthSize)))
            }
            result[id] = Location(method: method, baseOffset: base, extents: extents)
        }
        return result
    }

    private struct Reference {
        var type: String
        var from: UInt32
        var to: [UInt32]
    }

    private static func itemReferences(_ bmff: BMFFReader, _ iref: BMFFReader.Box) throws -> [Reference] {
        let r = bmff.reader
        let f = try bmff.fullBody(iref)
        let idSize = f.version == 0 ? 2 : 4
        func id(_ o: Int) throws -> UInt32 { idSize == 2 ? UInt32(try r.u16(o)) : try r.u32(o) }
        return try bmff.boxes(in: f.body).map { box in
            let b = box.body
            guard b.count >= idSize + 2 else { throw MediaFormatError.invalidImage("'\(box.type)' reference too short") }
            let count = Int(try r.u16(b.lowerBound + idSize))
            guard b.count >= idSize + 2 + count * idSize else { throw MediaFormatError.invalidImage("'\(box.type)' reference too short") }
            let to = try (0..<count).map { try id(b.lowerBound + idSize + 2 + $0 * idSize) }
            return Reference(type: box.type, from: try id(b.lowerBound), to: to)
        }
    }

    /// Each item's associated property boxes, in association order.
    private static func itemProperties(_ bmff: BMFFReader, _ iprp: BMFFReader.Box) throws -> [UInt32: [BMFFReader.Box]] {
        let r = bmff.reader
        let parts = try bmff.boxes(in: iprp.body)
        guard let ipco = parts.first(where: { $0.type == "ipco" }) else { return [:] }
        let boxes = try bmff.boxes(in: ipco.body)
        var result: [UInt32: [BMFFReader.Box]] = [:]
        for ipma in parts where ipma.type == "ipma" {
            let f = try bmff.fullBody(ipma)
            var o = f.body.lowerBound
            func take(_ size: Int) throws -> Int {
                guard o + size <= f.body.upperBound else { throw MediaFormatError.invalidImage("ipma box too short") }
                defer { o += size }
                return Int(try r.unsigned(o, size: size))
            }
            let entries = try take(4)
            for _ in 0..<entries {
                let id = UInt32(try take(f.version < 1 ? 2 : 4))
                let n = try take(1)
                for _ in 0..<n {
                    let wide = f.flags & 1 == 1
                    let index = try take(wide ? 2 : 1) & (wide ? 0x7FFF : 0x7F)
                    guard index > 0 else { continue }
                    guard index <= boxes.count else { throw MediaFormatError.invalidImage("ipma names property \(index) of \(boxes.count)") }
                    result[id, default: []].append(boxes[index - 1])
                }
            }
        }
        return result
    }
}
