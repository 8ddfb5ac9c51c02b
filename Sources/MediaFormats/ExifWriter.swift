import Foundation

/// Builds EXIF as a little-endian TIFF structure: IFD0 → Exif IFD (+ GPS IFD), and IFD1
/// with a JPEG thumbnail when one is given. Entries are sorted, values word-aligned and the
/// mandatory Exif 2.32 fields (ExifVersion, FlashpixVersion, ComponentsConfiguration,
/// YCbCrPositioning, resolutions) are always present, so `exiftool -validate` is clean.
public enum ExifWriter {
    /// A complete little-endian TIFF structure ("II*\0", IFD0 → Exif IFD (+ GPS IFD), optional
    /// IFD1 with a JPEG thumbnail via JPEGInterchangeFormat/Length), suitable for a JPEG APP1
    /// after the "Exif\0\0" header and for HEIF Exif items.
    public static func tiffData(for exif: ExifMetadata, thumbnailJPEG: Data? = nil) -> Data {
        var (ifd0, exifIFD, gpsIFD) = directories(for: exif)
        var ifd1 = TIFFDirectory()

        // Pointers are 4-byte values, so directory sizes are known before their targets are.
        ifd0.long(0x8769, 0)
        if !gpsIFD.isEmpty { ifd0.long(0x8825, 0) }
        let thumbnail = thumbnailJPEG.map { [UInt8]($0) }
        if let thumbnail {
            ifd1.short(0x0103, 6)
            ifd1.rationals(0x011A, [(72, 1)])
            ifd1.rationals(0x011B, [(72, 1)])
            ifd1.short(0x0128, 2)
            ifd1.long(0x0201, 0)
            ifd1.long(0x0202, UInt32(thumbnail.count))
        }
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + ifd0.byteSize
        let gpsOffset = exifOffset + exifIFD.byteSize
        let ifd1Offset = gpsOffset + (gpsIFD.isEmpty ? 0 : gpsIFD.byteSize)
        let thumbOffset = ifd1Offset + ifd1.byteSize
        ifd0.long(0x8769, UInt32(exifOffset))
        if !gpsIFD.isEmpty { ifd0.long(0x8825, UInt32(gpsOffset)) }
        if thumbnail != nil { ifd1.long(0x0201, UInt32(thumbOffset)) }

        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(UInt32(ifd0Offset))
        out += ifd0.serialize(at: ifd0Offset, next: thumbnail == nil ? 0 : UInt32(ifd1Offset))
        out += exifIFD.serialize(at: exifOffset, next: 0)
        if !gpsIFD.isEmpty { out += gpsIFD.serialize(at: gpsOffset, next: 0) }
        if let thumbnail {
            out += ifd1.serialize(at: ifd1Offset, next: 0)
            out += thumbnail
        }
        return Data(out)
    }

    /// Every field `tiffData(for:)` writes for `exif` (IFD0, the Exif IFD, the GPS IFD, and the Apple MakerNote's own
    /// IFD; the pointers between them and the thumbnail's IFD1 left out), each value decoded from the bytes written: the
    /// one list a metadata dictionary (`AVCapturePhoto.metadata`) is built from, so it says what the file says.
    public static func fields(for exif: ExifMetadata) -> [ExifField] {
        let (ifd0, exifIFD, gpsIFD) = directories(for: exif)
        func decoded(_ directory: TIFFDirectory, _ kind: ExifField.Directory) -> [ExifField] {
            directory.entries.sorted { $0.tag < $1.tag }.flatMap { entry -> [ExifField] in
                let field = TIFFField(type: entry.type, count: Int(entry.count), bytes: entry.bytes, byteOrder: .littleEndian)
                switch (kind, entry.tag) {
                case (.exif, 0x927C): return AppleMakerNote.fields(in: entry.bytes)
                case (.exif, 0x9286):
                    return ExifReader.userComment(entry.bytes, byteOrder: .littleEndian)
                        .map { [ExifField(directory: kind, tag: entry.tag, value: .text($0))] } ?? []
                default: return field.exifValue.map { [ExifField(directory: kind, tag: entry.tag, value: $0)] } ?? []
                }
            }
        }
        return decoded(ifd0, .image) + decoded(exifIFD, .exif) + decoded(gpsIFD, .gps)
    }

    /// IFD0 (without its pointers), the Exif IFD and the GPS IFD (empty without a location) for `exif`.
    private static func directories(for exif: ExifMetadata) -> (image: TIFFDirectory, exif: TIFFDirectory, gps: TIFFDirectory) {
        var ifd0 = TIFFDirectory()
        ifd0.ascii(0x010E, exif.imageDescription)
        ifd0.ascii(0x010F, exif.make)
        ifd0.ascii(0x0110, exif.model)
        ifd0.short(0x0112, UInt16(clamping: (1...8).contains(exif.orientation) ? exif.orientation : 1))
        ifd0.rationals(0x011A, [(72, 1)])
        ifd0.rationals(0x011B, [(72, 1)])
        ifd0.short(0x0128, 2)
        ifd0.ascii(0x0131, exif.software)
        ifd0.ascii(0x013B, exif.artist)
        ifd0.short(0x0213, 1)
        ifd0.ascii(0x8298, exif.copyright)

        if let date = exif.dateTimeOriginal {
            ifd0.ascii(0x0132, ExifDate(date: date, offsetSeconds: exif.timeZoneOffsetSeconds).dateTime)
        }
        return (ifd0, exifDirectory(for: exif, imageTags: .compressed), exif.gps.map { gpsDirectory(for: $0) } ?? TIFFDirectory())
    }

    /// Which of the tags that describe the stored image an Exif IFD carries.
    enum ImageTags {
        /// None: DNG's EXIF leaves them to its own IFDs.
        case none
        /// FlashpixVersion and ColorSpace, as Exif requires of an uncompressed TIFF (which states its size itself).
        case uncompressed
        /// Those, ComponentsConfiguration and the pixel dimensions, for a compressed JPEG/HEIF image.
        case compressed
    }

    /// The Exif IFD for a capture: exposure, dates, flash, lens, and the `imageTags` that describe the stored image.
    static func exifDirectory(for exif: ExifMetadata, imageTags: ImageTags) -> TIFFDirectory {
        var ifd = TIFFDirectory()
        if let t = exif.exposureTime, t > 0 {
            ifd.rational(0x829A, t)
            ifd.srational(0x9201, -log2(t))                  // ShutterSpeedValue (APEX)
        }
        if let n = exif.fNumber, n > 0 {
            ifd.rational(0x829D, n)
            ifd.rational(0x9202, 2 * log2(n))                // ApertureValue (APEX)
        }
        ifd.short(0x8822, exif.exposureProgram)
        if let iso = exif.iso {
            ifd.short(0x8827, UInt16(clamping: iso))
            ifd.short(0x8830, 3)                             // SensitivityType: ISO speed
        }
        ifd.bytes(0x9000, type: .undefined, Array("0232".utf8))
        if let date = exif.dateTimeOriginal {
            let stamp = ExifDate(date: date, offsetSeconds: exif.timeZoneOffsetSeconds)
            ifd.ascii(0x9003, stamp.dateTime)
            ifd.ascii(0x9004, stamp.dateTime)
            // An offset the source file never said is not made up (the local time is written as it was).
            if exif.timeZoneOffsetRecorded {
                ifd.ascii(0x9010, stamp.offset)
                ifd.ascii(0x9011, stamp.offset)
                ifd.ascii(0x9012, stamp.offset)
            }
            ifd.ascii(0x9290, stamp.subSec)
            ifd.ascii(0x9291, stamp.subSec)
            ifd.ascii(0x9292, stamp.subSec)
        }
        if imageTags == .compressed { ifd.bytes(0x9101, type: .undefined, [1, 2, 3, 0]) }  // Y Cb Cr -
        ifd.srational(0x9203, exif.brightnessValue)
        ifd.srational(0x9204, exif.exposureBiasValue)
        ifd.short(0x9207, exif.meteringMode)
        if let distance = exif.subjectDistance {
            if distance.isFinite { ifd.rational(0x9206, max(0, distance)) } else { ifd.rationals(0x9206, [(UInt32.max, 1)]) }
        }
        ifd.short(0x9209, exif.flash)
        ifd.rational(0x920A, exif.focalLength)
        if let area = exif.subjectArea, area.count == 2 || area.count == 3 || area.count == 4 { ifd.shorts(0x9214, area) }
        if let identifier = exif.appleContentIdentifier {
            ifd.bytes(0x927C, type: .undefined, AppleMakerNote.bytes(contentIdentifier: identifier))
        }
        if let comment = exif.userComment {
            ifd.bytes(0x9286, type: .undefined, userCommentBytes(comment))
        }
        if imageTags != .none {
            ifd.bytes(0xA000, type: .undefined, Array("0100".utf8))
            ifd.short(0xA001, exif.colorSpace)
        }
        if imageTags == .compressed {
            ifd.long(0xA002, exif.pixelXDimension.map { UInt32(clamping: $0) })
            ifd.long(0xA003, exif.pixelYDimension.map { UInt32(clamping: $0) })
        }
        ifd.short(0xA217, exif.sensingMethod)
        if let sceneType = exif.sceneType { ifd.bytes(0xA301, type: .undefined, [sceneType]) }
        ifd.short(0xA402, exif.exposureMode)
        ifd.short(0xA403, exif.whiteBalance)
        ifd.short(0xA405, exif.focalLengthIn35mmFilm.map { UInt16(clamping: $0) })
        ifd.short(0xA406, exif.sceneCaptureType)
        if let spec = exif.lensSpecification, spec.count == 4, spec.allSatisfy({ $0.isFinite && $0 > 0 }) {
            ifd.rationals(0xA432, spec.map(TIFFRational.unsigned))
        }
        ifd.ascii(0xA433, exif.lensMake)
        ifd.ascii(0xA434, exif.lensModel)
        return ifd
    }

    /// "Exif\0\0" + tiffData — the APP1 payload.
    public static func app1Payload(for exif: ExifMetadata, thumbnailJPEG: Data? = nil) -> Data {
        Data("Exif".utf8) + Data([0, 0]) + tiffData(for: exif, thumbnailJPEG: thumbnailJPEG)
    }

    /// A UserComment as EXIF stores it: an 8-byte character code ("ASCII" or "UNICODE") then the text.
    package static func userCommentBytes(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return Array("ASCII".utf8) + [0, 0, 0] + Array(text.utf8)
        }
        return Array("UNICODE".utf8) + [0] + text.utf16.flatMap { le16($0) }
    }

    /// The GPS IFD for `gps` (the JPEG/HEIF EXIF and the DNG/TIFF writers share it).
    static func gpsDirectory(for gps: GPSInfo) -> TIFFDirectory {
        var ifd = TIFFDirectory()
        func dms(_ degrees: Double) -> [(UInt32, UInt32)] {
            let a = abs(degrees)
            let d = a.rounded(.down)
            let m = ((a - d) * 60).rounded(.down)
            let s = (a - d - m / 60) * 3600
            return [(UInt32(d), 1), (UInt32(m), 1), (UInt32(max(0, s * 10_000).rounded()), 10_000)]
        }
        ifd.bytes(0x0000, type: .byte, [2, 3, 0, 0])   // 2.3: GPSHPositioningError is a 2.3 tag
        ifd.ascii(0x0001, gps.latitude >= 0 ? "N" : "S")
        ifd.rationals(0x0002, dms(gps.latitude))
        ifd.ascii(0x0003, gps.longitude >= 0 ? "E" : "W")
        ifd.rationals(0x0004, dms(gps.longitude))
        if let alt = gps.altitude {
            ifd.bytes(0x0005, type: .byte, [alt < 0 ? 1 : 0])
            ifd.rational(0x0006, abs(alt))
        }
        if let ts = gps.timestamp {
            let stamp = ExifDate(date: ts, offsetSeconds: 0)
            let c = stamp.components
            let seconds = Double(c.second) + Double(c.millisecond) / 1000
            ifd.rationals(0x0007, [(UInt32(c.hour), 1), (UInt32(c.minute), 1), (UInt32((seconds * 1000).rounded()), 1000)])
            ifd.ascii(0x001D, String(stamp.dateTime.prefix(10)))
        }
        if let speed = gps.speed {
            ifd.ascii(0x000C, gps.speedReference)
            ifd.rational(0x000D, speed)
        }
        if let direction = gps.imageDirection {
            ifd.ascii(0x0010, gps.imageDirectionReference)
            ifd.rational(0x0011, direction)
        }
        if let error = gps.horizontalError { ifd.rational(0x001F, error) }
        return ifd
    }
}
