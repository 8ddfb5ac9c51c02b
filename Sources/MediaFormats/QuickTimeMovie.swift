import Foundation

/// What a QuickTime or MPEG-4 movie's header says: duration, tracks (handler, sample format, size) and,
/// through `LivePhotoMovieAtoms`, its Live Photo pairing. Parsed from the `moov` box only; media is not read.
public struct QuickTimeMovie: Sendable, Equatable {
    /// One track: its handler (`vide`, `soun`, `meta`), first sample description format (`avc1`, `hvc1`, `mp4a`,
    /// `mebx`, …), for video the presentation size, and its number of samples (video frames; from `stsz`).
    public struct Track: Sendable, Equatable {
        public var handler: String
        public var format: String
        public var width: Int
        public var height: Int
        public var sampleCount: Int = 0
    }

    /// The `ftyp` major brand, if the file has one.
    public var brand: String?
    /// Movie duration, seconds.
    public var duration: Double
    /// When the movie was made (`mvhd`'s creation time; nil when 0, as FFmpeg leaves it without one, or past 9999).
    public var creationDate: Date?
    public var tracks: [Track]
    /// Movie-level `mdta` metadata and the still-image time, when the movie is a Live Photo's.
    public var pairing: LivePhotoMovieAtoms.Pairing

    /// Parses `data`; throws `.invalidImage` when it has no `moov` box, `.truncated` when boxes run past its end.
    public static func parse(_ data: Data) throws -> QuickTimeMovie {
        let bmff = BMFFReader(data)
        let r = bmff.reader
        let top = try bmff.boxes()
        guard let moov = top.first(where: { $0.type == "moov" }) else { throw MediaFormatError.invalidImage("no moov box") }
        let brand = try top.first(where: { $0.type == "ftyp" }).flatMap { $0.body.count >= 4 ? try r.fourCC($0.body.lowerBound) : nil }
        var duration = 0.0, creationDate: Date?
        var tracks: [Track] = []
        for child in try bmff.boxes(in: moov.body) {
            switch child.type {
            case "mvhd":
                let header = try MovieHeaderBox(r, child)
                duration = header.timescale > 0 ? Double(header.duration) / Double(header.timescale) : 0
                // Seconds since 1904-01-01 (2,082,844,800 s before 1970).
                let since1970 = Double(header.creationTime) - 2_082_844_800
                if header.creationTime > 0, since1970 <= ExifDate.latest { creationDate = Date(timeIntervalSince1970: since1970) }
            case "trak":
                tracks.append(try track(bmff, child))
            default:
                break
            }
        }
        return QuickTimeMovie(brand: brand, duration: duration, creationDate: creationDate, tracks: tracks,
                              pairing: try LivePhotoMovieAtoms.read(data))
    }

    private static func track(_ bmff: BMFFReader, _ trak: BMFFReader.Box) throws -> Track {
        let r = bmff.reader
        var result = Track(handler: "", format: "", width: 0, height: 0)
        if let hdlr = try bmff.box(path: ["mdia", "hdlr"], in: trak.body), hdlr.body.count >= 12 {
            result.handler = try r.fourCC(hdlr.body.lowerBound + 8)
        }
        if let stsd = try bmff.box(path: ["mdia", "minf", "stbl", "stsd"], in: trak.body), stsd.body.count >= 16 {
            result.format = try r.fourCC(stsd.body.lowerBound + 12)
        }
        if let stsz = try bmff.box(path: ["mdia", "minf", "stbl", "stsz"], in: trak.body), stsz.body.count >= 12 {
            result.sampleCount = Int(try r.u32(stsz.body.lowerBound + 8))
        }
        if let tkhd = try bmff.box("tkhd", in: trak.body), tkhd.body.count >= 84 {
            let end = tkhd.body.upperBound
            result.width = Int(try r.u32(end - 8) >> 16)
            result.height = Int(try r.u32(end - 4) >> 16)
        }
        return result
    }
}
