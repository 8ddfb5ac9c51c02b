import CTIFF
import Foundation

extension DNGWriter {
    /// Writes `exif` as a libtiff custom (EXIF) directory and returns its file offset for IFD0's ExifIFD.
    /// GPS is not written (yet).
    static func writeExifDirectory(_ tif: OpaquePointer, _ exif: ExifMetadata) throws -> UInt64 {
        guard TIFFCreateEXIFDirectory(tif) == 0 else { throw MediaFormatError.encoderFailed("libtiff could not start the EXIF IFD") }
        var f = TIFFFieldWriter(tif)
        f.array(EXIFTAG_EXIFVERSION, Array("0232".utf8))
        if let t = exif.exposureTime, t > 0 {
            f.double(EXIFTAG_EXPOSURETIME, t)
            f.double(EXIFTAG_SHUTTERSPEEDVALUE, -log2(t))
        }
        if let n = exif.fNumber, n > 0 {
            f.double(EXIFTAG_FNUMBER, n)
            f.double(EXIFTAG_APERTUREVALUE, 2 * log2(n))
        }
        f.u16(EXIFTAG_EXPOSUREPROGRAM, exif.exposureProgram)
        if let iso = exif.iso {
            f.counted(EXIFTAG_ISOSPEEDRATINGS, [UInt16(clamping: iso)])
            f.u16(EXIFTAG_SENSITIVITYTYPE, 3)  // ISO speed
        }
        if let date = exif.dateTimeOriginal {
            let stamp = ExifDate(date: date, offsetSeconds: exif.timeZoneOffsetSeconds)
            f.ascii(EXIFTAG_DATETIMEORIGINAL, stamp.dateTime)
            f.ascii(EXIFTAG_DATETIMEDIGITIZED, stamp.dateTime)
            f.ascii(EXIFTAG_OFFSETTIME, stamp.offset)
            f.ascii(EXIFTAG_OFFSETTIMEORIGINAL, stamp.offset)
            f.ascii(EXIFTAG_OFFSETTIMEDIGITIZED, stamp.offset)
            f.ascii(EXIFTAG_SUBSECTIME, stamp.subSec)
            f.ascii(EXIFTAG_SUBSECTIMEORIGINAL, stamp.subSec)
            f.ascii(EXIFTAG_SUBSECTIMEDIGITIZED, stamp.subSec)
        }
        f.double(EXIFTAG_BRIGHTNESSVALUE, exif.brightnessValue)
        f.double(EXIFTAG_EXPOSUREBIASVALUE, exif.exposureBiasValue)
        f.u16(EXIFTAG_METERINGMODE, exif.meteringMode)
        f.u16(EXIFTAG_FLASH, exif.flash)
        f.double(EXIFTAG_FOCALLENGTH, exif.focalLength)
        f.u16(EXIFTAG_SENSINGMETHOD, exif.sensingMethod)
        f.u16(EXIFTAG_EXPOSUREMODE, exif.exposureMode)
        f.u16(EXIFTAG_WHITEBALANCE, exif.whiteBalance)
        f.u16(EXIFTAG_FOCALLENGTHIN35MMFILM, exif.focalLengthIn35mmFilm.map { UInt16(clamping: $0) })
        f.u16(EXIFTAG_SCENECAPTURETYPE, exif.sceneCaptureType)
        f.ascii(EXIFTAG_LENSMAKE, exif.lensMake)
        f.ascii(EXIFTAG_LENSMODEL, exif.lensModel)
        try f.finish("EXIF IFD")
        var offset: UInt64 = 0
        guard TIFFWriteCustomDirectory(tif, &offset) == 1, offset > 0 else {
            throw MediaFormatError.encoderFailed("libtiff could not write the EXIF IFD")
        }
        return offset
    }
}
