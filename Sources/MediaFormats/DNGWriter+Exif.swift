import Foundation

extension DNGWriter {
    /// The EXIF IFD, built with the same serialiser as the JPEG EXIF writer so rationals come out as
    /// cameras write them (1/120, 9/5): libtiff 4.5.0 stores EXIF rationals as floats and writes
    /// 8947849/1073741824 for 1/120. GPS is not written.
    static func exifDirectory(_ exif: ExifMetadata) -> TIFFDirectory {
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
            ifd.ascii(0x9010, stamp.offset)
            ifd.ascii(0x9011, stamp.offset)
            ifd.ascii(0x9012, stamp.offset)
            ifd.ascii(0x9290, stamp.subSec)
            ifd.ascii(0x9291, stamp.subSec)
            ifd.ascii(0x9292, stamp.subSec)
        }
        ifd.srational(0x9203, exif.brightnessValue)
        ifd.srational(0x9204, exif.exposureBiasValue)
        ifd.short(0x9207, exif.meteringMode)
        ifd.short(0x9209, exif.flash)
        ifd.rational(0x920A, exif.focalLength)
        ifd.short(0xA217, exif.sensingMethod)
        ifd.short(0xA402, exif.exposureMode)
        ifd.short(0xA403, exif.whiteBalance)
        ifd.short(0xA405, exif.focalLengthIn35mmFilm.map { UInt16(clamping: $0) })
        ifd.short(0xA406, exif.sceneCaptureType)
        ifd.ascii(0xA433, exif.lensMake)
        ifd.ascii(0xA434, exif.lensModel)
        return ifd
    }

    /// Appends the EXIF IFD to libtiff's file and points IFD0's ExifIFD entry (a placeholder libtiff
    /// wrote) at it. Also retypes the SubIFDs and ExifIFD pointers from IFD (13), which libtiff uses,
    /// to LONG (4), which DNG, EXIF and `exiftool -validate` expect; both are 4 bytes.
    static func appendExif(_ exif: ExifMetadata, to file: TIFFMemoryFile) throws {
        if file.count & 1 == 1 { file.append([0]) }
        let exifOffset = file.count
        guard exifOffset < Int(UInt32.max) else { throw MediaFormatError.encoderFailed("DNG larger than 4 GB") }
        var linked = false
        file.withBytes { bytes in
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            let ifd0 = u16(4) | u16(6) << 16
            guard ifd0 + 2 <= bytes.count else { return }
            for i in 0..<u16(ifd0) {
                let entry = ifd0 + 2 + 12 * i
                guard entry + 12 <= bytes.count else { return }
                let tag = u16(entry)
                guard tag == 0x014A || tag == 0x8769 else { continue }
                if u16(entry + 2) == 13 { bytes[entry + 2] = 4 }
                if tag == 0x8769 {
                    for b in 0..<4 { bytes[entry + 8 + b] = UInt8(truncatingIfNeeded: exifOffset >> (8 * b)) }
                    linked = true
                }
            }
        }
        guard linked else { throw MediaFormatError.encoderFailed("libtiff did not write the ExifIFD entry") }
        file.append(exifDirectory(exif).serialize(at: exifOffset, next: 0))
    }
}
