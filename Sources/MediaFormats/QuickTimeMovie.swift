import Foundation

/// What a QuickTime or MPEG-4 movie's header says: duration, tracks (handler, sample format, size) and,
/// through `LivePhotoMovieAtoms`, its Live Photo pairing. Parsed from the `moov` box only; media is not read.
public struct QuickTimeMovie: Sendable, Equatable {
    /// One track: its handler (`vide`, `soun`, `meta`), first sample description format (`avc1`, `hvc1`, `mp4a`,
    /// `mebx`, …), for video the track header's size, the frames' coded size and pixel aspect (the sample description's)
    /// and the display matrix, and its number of samples (video frames; from `stsz`, and a fragmented movie's `trun`
    /// boxes).
    public struct Track: Sendable, Equatable {
        public var handler: String
        public var format: String
        /// The track header's (`tkhd`) size, before its matrix turns it. Writers differ on what it is: an MPEG-4 file's
        /// is the coded size widened by the pixel aspect (FFmpeg: 426×240 for 320×240 frames of 4:3 pixels), a
        /// QuickTime movie's often the coded size.
        public var width: Int
        public var height: Int
        public var sampleCount: Int = 0
        /// How players turn the track's frames (`tkhd`'s matrix): an upright phone's movie, stored landscape, is turned
        /// a quarter to show portrait.
        public var displayMatrix = DisplayMatrix.identity
        /// The frames' stored (coded) size, from the first visual sample description (`avc1`, `hvc1`…); nil when the
        /// track has none.
        public var codedWidth: Int?
        public var codedHeight: Int?
        /// The pixel aspect (`pasp`: horizontal by vertical spacing), 1:1 when the sample description has none: 4:3
        /// pixels show 320×240 frames 426 wide.
        public var pixelAspectHorizontal = 1
        public var pixelAspectVertical = 1
        /// Whether the pixels are not square.
        public var isAnamorphic: Bool { pixelAspectHorizontal != pixelAspectVertical }
        /// The size the frames are shown at before the matrix turns them: the coded size widened (or narrowed) by the
        /// pixel aspect, as FFmpeg and players apply it (the height kept, the width rounded down); the track header's
        /// size when there is no visual sample description.
        public var presentationWidth: Int {
            guard let codedWidth else { return width }
            return codedWidth * pixelAspectHorizontal / max(pixelAspectVertical, 1)
        }
        public var presentationHeight: Int { codedHeight ?? height }
        /// The size as shown: the presentation size, sides swapped when the matrix turns the frames a quarter.
        public var displayWidth: Int { displayMatrix.swapsSides ? presentationHeight : presentationWidth }
        public var displayHeight: Int { displayMatrix.swapsSides ? presentationWidth : presentationHeight }
        /// The stored frame size: the coded size, else the track header's.
        public var storedWidth: Int { codedWidth ?? width }
        public var storedHeight: Int { codedHeight ?? height }
    }

    /// The `ftyp` major brand, if the file has one.
    public var brand: String?
    /// Movie duration, seconds: `mvhd`'s, or — for a fragmented movie, whose `mvhd` covers only the samples in `moov`
    /// (none with FFmpeg's `-movflags frag_keyframe+empty_moov`, streaming recorders) — `mehd`'s, else the longest
    /// track's `moov` samples and those of its `moof` fragments.
    public var duration: Double
    /// When the movie was made (`mvhd`'s creation time; nil when 0, as FFmpeg leaves it without one, or past 9999).
    public var creationDate: Date?
    public var tracks: [Track]
    /// The first video (`vide`) track, if the movie has one.
    public var videoTrack: Track? { tracks.first { $0.handler == "vide" } }
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
        var trackIDs: [UInt32?] = []
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
                trackIDs.append(try? trackID(bmff, child))
            default:
                break
            }
        }
        // (Damaged fragments leave mvhd's duration and stsz's sample counts, rather than the movie unreadable.)
        if let mvex = try bmff.box("mvex", in: moov.body), let fragments = try? fragments(bmff, top: top, moov: moov, mvex: mvex) {
            duration = max(duration, fragments.seconds)
            for i in tracks.indices { tracks[i].sampleCount += trackIDs[i].flatMap { fragments.samples[$0] } ?? 0 }
        }
        return QuickTimeMovie(brand: brand, duration: duration, creationDate: creationDate, tracks: tracks,
                              pairing: try LivePhotoMovieAtoms.read(data))
    }

    /// A fragmented movie's length in seconds — `mehd`'s fragment duration (movie timescale) when given, else per track
    /// its `mdhd` duration (the samples in `moov`) plus the sample durations of its `trun` boxes (or the `tfhd`/`trex`
    /// default), in its `mdhd` timescale, the longest — and the number of samples each track ID has in fragments.
    private static func fragments(_ bmff: BMFFReader, top: [BMFFReader.Box], moov: BMFFReader.Box,
                                  mvex: BMFFReader.Box) throws -> (seconds: Double, samples: [UInt32: Int]) {
        let r = bmff.reader
        var timescales: [UInt32: UInt32] = [:], defaults: [UInt32: UInt32] = [:], totals: [UInt32: Double] = [:]
        var samples: [UInt32: Int] = [:]
        for trak in try bmff.boxes(in: moov.body) where trak.type == "trak" {
            guard let track = try trackID(bmff, trak), let mdhd = try bmff.box(path: ["mdia", "mdhd"], in: trak.body) else { continue }
            let (version, _, body) = try bmff.fullBody(mdhd)
            timescales[track] = try r.u32(body.lowerBound + (version == 1 ? 16 : 8))
            totals[track] = Double(version == 1 ? try r.u64(body.lowerBound + 20) : UInt64(try r.u32(body.lowerBound + 12)))
        }
        for trex in try bmff.boxes(in: mvex.body) where trex.type == "trex" {
            let body = try bmff.fullBody(trex).body
            defaults[try r.u32(body.lowerBound)] = try r.u32(body.lowerBound + 8)
        }
        for moof in top where moof.type == "moof" {
            for traf in try bmff.boxes(in: moof.body) where traf.type == "traf" {
                guard let tfhd = try bmff.box("tfhd", in: traf.body) else { continue }
                let (_, flags, body) = try bmff.fullBody(tfhd)
                let track = try r.u32(body.lowerBound)
                var at = body.lowerBound + 4 + (flags & 0x01 != 0 ? 8 : 0) + (flags & 0x02 != 0 ? 4 : 0)
                var sampleDuration = defaults[track] ?? 0
                if flags & 0x08 != 0 { sampleDuration = try r.u32(at); at += 4 }
                for trun in try bmff.boxes(in: traf.body) where trun.type == "trun" {
                    let (_, runFlags, run) = try bmff.fullBody(trun)
                    let count = Int(try r.u32(run.lowerBound))
                    samples[track, default: 0] += count
                    guard runFlags & 0x100 != 0 else { totals[track, default: 0] += Double(count) * Double(sampleDuration); continue }
                    // Per sample: duration, then size, flags and composition offset when present.
                    let stride = 4 * [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count
                    let first = run.lowerBound + 4 + (runFlags & 0x01 != 0 ? 4 : 0) + (runFlags & 0x04 != 0 ? 4 : 0)
                    guard first + count * stride <= run.upperBound else { throw MediaFormatError.invalidImage("trun box shorter than its samples") }
                    for sample in 0..<count { totals[track, default: 0] += Double(try r.u32(first + sample * stride)) }
                }
            }
        }
        var seconds = totals.compactMap { track, units in timescales[track].flatMap { $0 > 0 ? Double(units) / Double($0) : nil } }.max() ?? 0
        if let mehd = try bmff.box("mehd", in: mvex.body), let mvhd = try bmff.box("mvhd", in: moov.body) {
            let (version, _, body) = try bmff.fullBody(mehd)
            let units = version == 1 ? try r.u64(body.lowerBound) : UInt64(try r.u32(body.lowerBound))
            let timescale = try MovieHeaderBox(r, mvhd).timescale
            if units > 0, timescale > 0 { seconds = Double(units) / Double(timescale) }
        }
        return (seconds, samples)
    }

    /// A `trak`'s track ID (its `tkhd`'s), if it has one.
    private static func trackID(_ bmff: BMFFReader, _ trak: BMFFReader.Box) throws -> UInt32? {
        guard let tkhd = try bmff.box("tkhd", in: trak.body) else { return nil }
        let (version, _, body) = try bmff.fullBody(tkhd)
        return try bmff.reader.u32(body.lowerBound + (version == 1 ? 16 : 8))
    }

    private static func track(_ bmff: BMFFReader, _ trak: BMFFReader.Box) throws -> Track {
        let r = bmff.reader
        var result = Track(handler: "", format: "", width: 0, height: 0)
        if let hdlr = try bmff.box(path: ["mdia", "hdlr"], in: trak.body), hdlr.body.count >= 12 {
            result.handler = try r.fourCC(hdlr.body.lowerBound + 8)
        }
        if let stsd = try bmff.box(path: ["mdia", "minf", "stbl", "stsd"], in: trak.body), stsd.body.count >= 16 {
            result.format = try r.fourCC(stsd.body.lowerBound + 12)
            // A video sample description: SampleEntry's 8 bytes, then 16 of VisualSampleEntry before width and height
            // (16 bits each), 78 in all before its boxes (`avcC`, `pasp`, `colr`…).
            // Read leniently: a damaged description leaves the sizes to the track header, as before.
            if result.handler == "vide", let entry = bmff.leadingWholeBoxes(in: (stsd.body.lowerBound + 8)..<stsd.body.upperBound).first,
               entry.body.count >= 78 {
                let width = Int(try r.u16(entry.body.lowerBound + 24)), height = Int(try r.u16(entry.body.lowerBound + 26))
                if width > 0, height > 0 { (result.codedWidth, result.codedHeight) = (width, height) }
                if let pasp = bmff.leadingWholeBoxes(in: (entry.body.lowerBound + 78)..<entry.body.upperBound).first(where: { $0.type == "pasp" }),
                   pasp.body.count >= 8 {
                    let h = Int(try r.u32(pasp.body.lowerBound)), v = Int(try r.u32(pasp.body.lowerBound + 4))
                    if h > 0, v > 0, h <= 1 << 16, v <= 1 << 16 { (result.pixelAspectHorizontal, result.pixelAspectVertical) = (h, v) }
                }
            }
        }
        if let stsz = try bmff.box(path: ["mdia", "minf", "stbl", "stsz"], in: trak.body), stsz.body.count >= 12 {
            result.sampleCount = Int(try r.u32(stsz.body.lowerBound + 8))
        }
        if let tkhd = try bmff.box("tkhd", in: trak.body), tkhd.body.count >= 84 {
            // …, the matrix (nine 32-bit values), width, height (16.16) end the box.
            let end = tkhd.body.upperBound
            result.width = Int(try r.u32(end - 8) >> 16)
            result.height = Int(try r.u32(end - 4) >> 16)
            let matrix = try (0..<9).map { Int32(bitPattern: try r.u32(end - 44 + 4 * $0)) }
            result.displayMatrix = DisplayMatrix(matrix) ?? .identity
        }
        return result
    }
}
