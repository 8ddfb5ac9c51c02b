import Foundation

/// Reads EXIF back into `ExifMetadata`: a minimal parser (either byte order) for tests and
/// round-tripping, covering the fields `ExifWriter` writes.
public enum ExifReader {
    /// Minimal parser for tests and for round-tripping: reads the EXIF of a JPEG (or a raw
    /// TIFF blob) back into ExifMetadata.
    public static func read(jpeg: Data) throws -> ExifMetadata {
        try read(tiff: try TIFFParser(try tiffBytes(in: jpeg)))
    }

    /// The EXIF of a photo of any kind the package reads — a JPEG's APP1, a TIFF's or DNG's IFDs, a HEIF's Exif item, a
    /// PNG's eXIf chunk — or nil when it carries none or cannot be read: the one place that knows where each kind keeps it.
    public static func read(photo data: Data) -> ExifMetadata? {
        switch FileKind.of(data) {
        case .jpeg, .tiff, .dng: return try? read(jpeg: data)
        case .heif: return (try? HEIFStructure.parse(data))?.exif.flatMap { try? read(jpeg: $0) }
        case .png: return (try? PNGHeader.exif(in: data)).flatMap { $0 }.flatMap { try? read(jpeg: $0) }
        default: return nil
        }
    }

    /// The EXIF of a parsed TIFF structure (a raw file's, read once for its tags too).
    static func read(tiff: TIFFParser) throws -> ExifMetadata {
        let ifd0 = try tiff.directory(at: tiff.firstIFDOffset)
        var exif = ExifMetadata()
        exif.imageDescription = ifd0[0x010E]?.string
        exif.make = ifd0[0x010F]?.string
        exif.model = ifd0[0x0110]?.string
        exif.orientation = ifd0[0x0112]?.integer ?? 1
        exif.software = ifd0[0x0131]?.string
        exif.artist = ifd0[0x013B]?.string
        exif.copyright = ifd0[0x8298]?.string
        exif.sensingMethod = nil
        exif.colorSpace = 1

        if let p = ifd0[0x8769]?.integer {
            let e = try tiff.directory(at: p)
            exif.exposureTime = e[0x829A]?.real
            exif.fNumber = e[0x829D]?.real
            exif.exposureProgram = e[0x8822]?.integer.map { UInt16(clamping: $0) }
            exif.iso = e[0x8827]?.integer
            // OffsetTimeOriginal, else OffsetTime (DateTime's: the zone a camera keeps for both, a guess) when the first is
            // missing, blank or unreadable; with neither the time is local to this machine's zone.
            let subSec = e[0x9291]?.string
            if let text = e[0x9003]?.string,
               let parsed = [e[0x9011]?.string, e[0x9010]?.string].lazy.compactMap({ $0 })
                   .compactMap({ ExifDate.parse(text, subSec: subSec, offset: $0) }).first(where: \.offsetRecorded)
                   ?? ExifDate.parse(text, subSec: subSec, offset: nil) {
                exif.dateTimeOriginal = parsed.date
                exif.timeZoneOffsetSeconds = parsed.offsetSeconds
                exif.timeZoneOffsetRecorded = parsed.offsetRecorded
            }
            exif.brightnessValue = e[0x9203]?.real
            exif.exposureBiasValue = e[0x9204]?.real
            exif.meteringMode = e[0x9207]?.integer.map { UInt16(clamping: $0) }
            exif.flash = e[0x9209]?.integer.map { UInt16(clamping: $0) }
            exif.focalLength = e[0x920A]?.real
            if let distance = e[0x9206] {
                // 0xFFFFFFFF/1 means infinity (EXIF 2.32).
                exif.subjectDistance = distance.real.map { $0 >= Double(UInt32.max) ? .infinity : $0 }
            }
            exif.subjectArea = e[0x9214]?.integers.map { $0.map { UInt16(clamping: $0) } }
            if let note = e[0x927C] { exif.appleContentIdentifier = AppleMakerNote.contentIdentifier(in: note.bytes) }
            if let raw = e[0x9286] { exif.userComment = userComment(raw.bytes, byteOrder: tiff.byteOrder) }
            exif.colorSpace = e[0xA001]?.integer.map { UInt16(clamping: $0) } ?? 1
            exif.pixelXDimension = e[0xA002]?.integer
            exif.pixelYDimension = e[0xA003]?.integer
            exif.sensingMethod = e[0xA217]?.integer.map { UInt16(clamping: $0) }
            exif.sceneType = e[0xA301]?.integer.map { UInt8(clamping: $0) }
            exif.exposureMode = e[0xA402]?.integer.map { UInt16(clamping: $0) }
            exif.whiteBalance = e[0xA403]?.integer.map { UInt16(clamping: $0) }
            exif.focalLengthIn35mmFilm = e[0xA405]?.integer
            exif.sceneCaptureType = e[0xA406]?.integer.map { UInt16(clamping: $0) }
            exif.lensSpecification = e[0xA432]?.reals.flatMap { $0.count == 4 ? $0 : nil }
            exif.lensMake = e[0xA433]?.string
            exif.lensModel = e[0xA434]?.string
        }
        if let p = ifd0[0x8825]?.integer {
            let g = try tiff.directory(at: p)
            func degrees(_ tag: UInt16, ref: UInt16, negative: String) -> Double? {
                guard let v = g[tag]?.reals, v.count == 3 else { return nil }
                let d = v[0] + v[1] / 60 + v[2] / 3600
                return g[ref]?.string == negative ? -d : d
            }
            if let lat = degrees(0x0002, ref: 0x0001, negative: "S"), let lon = degrees(0x0004, ref: 0x0003, negative: "W") {
                var info = GPSInfo(latitude: lat, longitude: lon)
                if let alt = g[0x0006]?.real { info.altitude = g[0x0005]?.integer == 1 ? -alt : alt }
                if let day = g[0x001D]?.string, let t = g[0x0007]?.reals, t.count == 3 {
                    info.timestamp = GPSInfo.time(dateStamp: day, hours: t[0], minutes: t[1], seconds: t[2])
                }
                if let speed = g[0x000D]?.real {
                    info.speed = speed
                    info.speedReference = g[0x000C]?.string ?? "K"
                }
                if let direction = g[0x0011]?.real {
                    info.imageDirection = direction
                    info.imageDirectionReference = g[0x0010]?.string ?? "T"
                }
                info.horizontalError = g[0x001F]?.real
                exif.gps = info
            }
        }
        return exif
    }

    /// A UserComment's text: its 8-byte character code ("UNICODE": UTF-16 in the file's byte order; else the bytes as
    /// UTF-8) then the text. Nil when the field is shorter than its code.
    static func userComment(_ bytes: [UInt8], byteOrder: ByteOrder) -> String? {
        guard bytes.count >= 8 else { return nil }
        let body = ByteReader(Array(bytes.dropFirst(8)), byteOrder: byteOrder)
        if bytes.starts(with: Array("UNICODE".utf8)) {
            let units = stride(from: 0, to: body.count - 1, by: 2).compactMap { try? body.u16($0) }
            return String(decoding: units, as: UTF16.self)
        }
        return String(decoding: body.bytes, as: UTF8.self)
    }

    /// The IFD1 JPEG thumbnail of a JPEG's EXIF (or raw TIFF blob), if there is one.
    public static func thumbnail(jpeg: Data) throws -> Data? {
        let tiff = try TIFFParser(try tiffBytes(in: jpeg))
        let ifd0Offset = tiff.firstIFDOffset
        guard let next = tiff.nextIFDOffset(after: ifd0Offset), next != 0 else { return nil }
        let ifd1 = try tiff.directory(at: next)
        guard let start = ifd1[0x0201]?.integer, let length = ifd1[0x0202]?.integer, length > 0,
              let bytes = try? tiff.reader.slice(start, length) else { return nil }
        return Data(bytes)
    }

    /// The TIFF stream inside a JPEG's APP1 "Exif\0\0" segment, or `data` itself if it is TIFF.
    static func tiffBytes(in data: Data) throws -> [UInt8] {
        let b = [UInt8](data)
        if b.count >= 4, (b[0] == 0x49 && b[1] == 0x49) || (b[0] == 0x4D && b[1] == 0x4D) { return b }
        guard let exif = try JPEGSegments.exifTIFF(in: data) else { throw MediaFormatError.invalidMetadata("no EXIF APP1 segment") }
        return [UInt8](exif)
    }
}
