import Foundation

extension DNGWriter {
    /// Appends the EXIF IFD to libtiff's file and points IFD0's ExifIFD entry (a placeholder libtiff
    /// wrote) at it. Also retypes the SubIFDs and ExifIFD pointers from IFD (13), which libtiff uses,
    /// to LONG (4), which DNG, EXIF and `exiftool -validate` expect; both are 4 bytes. An RGB TIFF's EXIF also
    /// describes its image (`imageTags: .uncompressed`).
    static func appendExif(_ exif: ExifMetadata, to file: TIFFMemoryFile, imageTags: ExifWriter.ImageTags = .none) throws {
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
        // The EXIF IFD comes from the JPEG EXIF writer, so rationals come out as cameras write them
        // (1/120, 9/5): libtiff 4.5.0 stores EXIF rationals as floats (8947849/1073741824 for 1/120).
        file.append(ExifWriter.exifDirectory(for: exif, imageTags: imageTags).serialize(at: exifOffset, next: 0))
    }
}
