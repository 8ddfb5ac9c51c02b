import Foundation

/// The QuickTime atoms that make a movie the video half of a Live Photo, which no muxer available
/// here writes (../shared/reference/FORMATS.md §4): a QTFF `moov/meta` with `mdta` keys (the
/// content identifier the still's Apple MakerNote carries, plus any other movie metadata) and a
/// timed-metadata track whose single `mebx` sample, `com.apple.quicktime.still-image-time` = −1,
/// is presented at the still's moment.
public enum LivePhotoMovieAtoms {
    public static let contentIdentifierKey = "com.apple.quicktime.content.identifier"
    public static let stillImageTimeKey = "com.apple.quicktime.still-image-time"

    /// What `read` finds in a movie.
    public struct Pairing: Sendable, Equatable {
        /// Movie-level `mdta` metadata, key → UTF-8 value, from `moov/meta` and `moov/udta/meta` (the first wins).
        public var metadata: [String: String]
        /// The still's presentation time in seconds, from the still-image-time track.
        public var stillImageTime: Double?
        public var contentIdentifier: String? { metadata[LivePhotoMovieAtoms.contentIdentifierKey] }
    }

    /// Adds the pairing atoms to `movie`, a QuickTime file whose `moov` is its last box after the media
    /// (as `MovieWriter` writes it): `moov` is rewritten with the metadata and the new track, and the
    /// track's sample goes in a small `mdat` where the old `moov` began, so no media offset moves.
    public static func pair(_ movie: Data, metadata: [(key: String, value: String)], stillImageTime: Double) throws -> Data {
        let bmff = BMFFReader(movie)
        let top = try bmff.boxes()
        guard let moov = top.last, moov.type == "moov", top.dropLast().contains(where: { $0.type == "mdat" }) else {
            throw MediaFormatError.unsupported("a movie whose moov box is not last, after its media")
        }
        let r = bmff.reader
        let moovStart = moov.body.lowerBound - 8
        guard moovStart >= 0, try r.u32(moovStart) == UInt32(moov.body.count + 8) else {
            throw MediaFormatError.unsupported("a 64-bit moov box")
        }
        var children: [[UInt8]] = []
        var movieTimescale: UInt32 = 0, movieDuration: UInt64 = 0, nextTrackID: UInt32 = 0, created: UInt32 = 0
        for child in try bmff.boxes(in: moov.body) {
            var bytes = Array(r.bytes[(child.body.lowerBound - 8)..<child.body.upperBound])
            if child.type == "mvhd" {
                let header = try MovieHeaderBox(r, child)
                guard let nextAt = header.nextTrackIDOffset else { throw MediaFormatError.invalidImage("short mvhd box") }
                movieTimescale = header.timescale
                movieDuration = header.duration
                // The movie's creation time, for the new track's headers too.
                created = UInt32(clamping: header.creationTime)
                nextTrackID = try r.u32(nextAt)
                let local = nextAt - (child.body.lowerBound - 8)
                bytes.replaceSubrange(local..<(local + 4), with: be32(nextTrackID + 1))
            }
            if child.type == "meta" { continue }           // replaced below
            children.append(bytes)
        }
        guard movieTimescale > 0, nextTrackID > 0, nextTrackID < UInt32.max, stillImageTime.isFinite, stillImageTime < 86_400 else { throw MediaFormatError.invalidImage("movie without a valid mvhd") }

        let sampleOffset = UInt32(moovStart + 8)
        var mdat = BMFFWriter()
        mdat.box("mdat") { $0.append([0, 0, 0, 9, 0, 0, 0, 1, 0xFF]) }    // one item: local key 1, int8 −1

        var newMoov = BMFFWriter()
        newMoov.box("moov") { w in
            for child in children { w.append(child) }
            w.append(metaBox(metadata))
            w.append(stillImageTrack(trackID: nextTrackID, movieTimescale: movieTimescale, movieDuration: movieDuration,
                                     stillTime: stillImageTime, sampleOffset: sampleOffset, created: created))
        }
        return movie.prefix(moovStart) + Data(mdat.bytes) + Data(newMoov.bytes)
    }

    /// The pairing atoms of a movie, if it has any.
    public static func read(_ movie: Data) throws -> Pairing {
        let bmff = BMFFReader(movie)
        let r = bmff.reader
        guard let moov = try bmff.boxes().first(where: { $0.type == "moov" }) else {
            throw MediaFormatError.invalidImage("not a QuickTime movie (no moov box)")
        }
        var pairing = Pairing(metadata: [:], stillImageTime: nil)
        var userData: [String: String] = [:]
        var movieTimescale: UInt32 = 600
        for child in try bmff.boxes(in: moov.body) {
            switch child.type {
            case "mvhd":
                movieTimescale = try MovieHeaderBox(r, child).timescale
            case "meta":
                pairing.metadata.merge(try readMeta(bmff, child)) { _, new in new }
            case "udta":
                // Where ffmpeg (`-movflags use_metadata_tags`) puts the same keys; a damaged user data box costs only its
                // own keys.
                if let meta = try? bmff.boxes(in: child.body).first(where: { $0.type == "meta" }),
                   let keys = try? readMeta(bmff, meta) {
                    userData.merge(keys) { own, _ in own }
                }
            case "trak":
                if let time = try stillTime(bmff, trak: child, movieTimescale: movieTimescale) { pairing.stillImageTime = time }
            default:
                break
            }
        }
        // moov/meta (the pairing `pair` writes) wins over the user data's keys, wherever the boxes lie.
        pairing.metadata.merge(userData) { own, _ in own }
        return pairing
    }

    // MARK: Writing

    private static func metaBox(_ metadata: [(key: String, value: String)]) -> [UInt8] {
        BMFFWriter.box("meta") { w in
            w.append(BMFFWriter.fullBox("hdlr") { h in
                h.u32(0); h.fourCC("mdta"); h.u32(0); h.u32(0); h.u32(0); h.u8(0)
            })
            w.append(BMFFWriter.fullBox("keys") { k in
                k.u32(UInt32(metadata.count))
                for entry in metadata {
                    let key = Array(entry.key.utf8)
                    k.u32(UInt32(8 + key.count)); k.fourCC("mdta"); k.append(key)
                }
            })
            w.append(BMFFWriter.box("ilst") { l in
                for (index, entry) in metadata.enumerated() {
                    let value = Array(entry.value.utf8)
                    let data = be32(UInt32(16 + value.count)) + Array("data".utf8) + be32(1) + be32(0) + value
                    l.u32(UInt32(8 + data.count)); l.u32(UInt32(index + 1)); l.append(data)
                }
            })
        }
    }

    private static func stillImageTrack(trackID: UInt32, movieTimescale: UInt32, movieDuration: UInt64, stillTime: Double,
                                        sampleOffset: UInt32, created: UInt32) -> [UInt8] {
        let mediaTimescale: UInt32 = 600, sampleDuration: UInt32 = 20
        func ticks(_ seconds: Double) -> UInt32 { UInt32(min(Double(UInt32.max / 2), max(0, (seconds * Double(movieTimescale)).rounded()))) }
        let before = ticks(stillTime)
        let sampleInMovie = max(1, ticks(Double(sampleDuration) / Double(mediaTimescale)))
        let matrix: [UInt32] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000]
        return BMFFWriter.box("trak") { t in
            t.fullBox("tkhd", flags: 0xF) { h in
                h.u32(created); h.u32(created); h.u32(trackID); h.u32(0); h.u32(before + sampleInMovie)
                h.u32(0); h.u32(0); h.u16(0); h.u16(0); h.u16(0); h.u16(0)
                for m in matrix { h.u32(m) }
                h.u32(0); h.u32(0)
            }
            t.box("edts") { e in
                e.fullBox("elst") { l in
                    l.u32(before > 0 ? 2 : 1)
                    if before > 0 { l.u32(before); l.u32(0xFFFF_FFFF); l.u32(0x0001_0000) }
                    l.u32(sampleInMovie); l.u32(0); l.u32(0x0001_0000)
                }
            }
            t.box("mdia") { m in
                m.fullBox("mdhd") { h in
                    h.u32(created); h.u32(created); h.u32(mediaTimescale); h.u32(sampleDuration); h.u16(0x55C4); h.u16(0)
                }
                m.fullBox("hdlr") { h in
                    h.fourCC("mhlr"); h.fourCC("meta"); h.u32(0); h.u32(0); h.u32(0); h.cString("Core Media Metadata")
                }
                m.box("minf") { i in
                    i.box("gmhd") { g in
                        g.fullBox("gmin") { h in h.u16(0x40); h.u16(0x8000); h.u16(0x8000); h.u16(0x8000); h.u16(0); h.u16(0) }
                    }
                    i.fullBox("hdlr") { h in
                        h.fourCC("dhlr"); h.fourCC("alis"); h.u32(0); h.u32(0); h.u32(0); h.cString("Core Media Data Handler")
                    }
                    i.box("dinf") { d in
                        d.fullBox("dref") { r in r.u32(1); r.fullBox("alis", flags: 1) { _ in } }
                    }
                    i.box("stbl") { s in
                        s.fullBox("stsd") { d in
                            d.u32(1)
                            d.box("mebx") { x in
                                x.append([0, 0, 0, 0, 0, 0]); x.u16(1)
                                x.box("keys") { k in
                                    let keyd = BMFFWriter.box("keyd") { $0.fourCC("mdta"); $0.append(Array(stillImageTimeKey.utf8)) }
                                    let dtyp = BMFFWriter.box("dtyp") { $0.u32(0); $0.u32(65) }
                                    k.u32(UInt32(8 + keyd.count + dtyp.count)); k.u32(1); k.append(keyd); k.append(dtyp)
                                }
                            }
                        }
                        s.fullBox("stts") { $0.u32(1); $0.u32(1); $0.u32(sampleDuration) }
                        s.fullBox("stsc") { $0.u32(1); $0.u32(1); $0.u32(1); $0.u32(1) }
                        s.fullBox("stsz") { $0.u32(9); $0.u32(1) }
                        s.fullBox("stco") { $0.u32(1); $0.u32(sampleOffset) }
                    }
                }
            }
        }
    }

    private static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    // MARK: Reading

    /// The `mdta` keys and values of a `meta` box: QuickTime's (children from its start) or ISO's full box (four bytes
    /// of version and flags first, as ffmpeg writes it in `udta`).
    private static func readMeta(_ bmff: BMFFReader, _ meta: BMFFReader.Box) throws -> [String: String] {
        let r = bmff.reader
        let knownChild: Set<String> = ["hdlr", "keys", "ilst"]
        let fullBox = meta.body.count >= 12 && !knownChild.contains((try? r.fourCC(meta.body.lowerBound + 4)) ?? "")
            && knownChild.contains((try? r.fourCC(meta.body.lowerBound + 8)) ?? "")
        let children = try bmff.boxes(in: (meta.body.lowerBound + (fullBox ? 4 : 0))..<meta.body.upperBound)
        guard let keysBox = children.first(where: { $0.type == "keys" }),
              let ilst = children.first(where: { $0.type == "ilst" }) else { return [:] }
        var keys: [String] = []
        let count = Int(try r.u32(keysBox.body.lowerBound + 4))
        var at = keysBox.body.lowerBound + 8
        for _ in 0..<min(count, 1024) {
            let size = Int(try r.u32(at))
            guard size >= 8, at + size <= keysBox.body.upperBound else { throw MediaFormatError.invalidImage("bad mdta key entry") }
            keys.append(String(decoding: r.bytes[(at + 8)..<(at + size)], as: UTF8.self))
            at += size
        }
        var result: [String: String] = [:]
        var item = ilst.body.lowerBound
        while item + 8 <= ilst.body.upperBound {
            let size = Int(try r.u32(item)), index = Int(try r.u32(item + 4))
            guard size >= 8, item + size <= ilst.body.upperBound else { throw MediaFormatError.invalidImage("bad ilst item") }
            if let data = try bmff.boxes(in: (item + 8)..<(item + size)).first(where: { $0.type == "data" }),
               data.body.count >= 8, index >= 1, index <= keys.count, try r.u32(data.body.lowerBound) & 0xFF_FFFF == 1 {
                result[keys[index - 1]] = String(decoding: r.bytes[(data.body.lowerBound + 8)..<data.body.upperBound], as: UTF8.self)
            }
            item += size
        }
        return result
    }

    /// The still-image time of a `mebx` track carrying the still-image-time key: its first edit's empty span.
    private static func stillTime(_ bmff: BMFFReader, trak: BMFFReader.Box, movieTimescale: UInt32) throws -> Double? {
        let r = bmff.reader
        guard let stsd = try bmff.box(path: ["mdia", "minf", "stbl", "stsd"], in: trak.body), stsd.body.count > 16,
              try r.fourCC(stsd.body.lowerBound + 12) == "mebx" else { return nil }
        let key = Array(stillImageTimeKey.utf8)
        let bytes = r.bytes[stsd.body]
        guard bytes.count >= key.count, (0...(bytes.count - key.count)).contains(where: { Array(bytes.dropFirst($0).prefix(key.count)) == key }) else {
            return nil
        }
        guard let elst = try bmff.box(path: ["edts", "elst"], in: trak.body), elst.body.count >= 20 else { return 0 }
        let mediaTime = try r.u32(elst.body.lowerBound + 12)
        guard mediaTime == 0xFFFF_FFFF else { return 0 }
        return Double(try r.u32(elst.body.lowerBound + 8)) / Double(max(1, movieTimescale))
    }
}
