import Foundation

extension DNGWriter {
    /// Appends the EXIF IFD to libtiff's file and points IFD0's ExifIFD entry (a placeholder libtiff
    /// wrote) at it. Also retypes the SubIFDs and ExifIFD pointers from IFD (13), which libtiff uses,
    /// to LONG (4), which DNG, EXIF and `exiftool -validate` expect; both are 4 bytes. An RGB TIFF's EXIF also
    /// describes its image (`imageTags: .uncompressed`).
    static func appendExif(_ exif: ExifMetadata, to file: TIFFStream, imageTags: ExifWriter.ImageTags = .none) throws {
        if file.count & 1 == 1 { file.append([0]) }
        let exifOffset = file.count
        guard exifOffset < Int(UInt32.max) else { throw MediaFormatError.encoderFailed("DNG larger than 4 GB") }
        var linked = false
        let header = file.bytes(at: 4, count: 4)
        guard header.count == 4 else { throw MediaFormatError.encoderFailed("libtiff wrote no header") }
        let ifd0 = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        let countBytes = file.bytes(at: ifd0, count: 2)
        let entryCount = countBytes.count == 2 ? Int(countBytes[0]) | Int(countBytes[1]) << 8 : 0
        var entries = file.bytes(at: ifd0 + 2, count: 12 * entryCount)
        func u16(_ at: Int) -> Int { Int(entries[at]) | Int(entries[at + 1]) << 8 }
        for i in 0..<entries.count / 12 {
            let entry = 12 * i
            let tag = u16(entry)
            guard tag == 0x014A || tag == 0x8769 else { continue }
            if u16(entry + 2) == 13 { entries[entry + 2] = 4 }
            if tag == 0x8769 {
                for b in 0..<4 { entries[entry + 8 + b] = UInt8(truncatingIfNeeded: exifOffset >> (8 * b)) }
                linked = true
            }
        }
        file.overwrite(entries, at: ifd0 + 2)
        guard linked else { throw MediaFormatError.encoderFailed("libtiff did not write the ExifIFD entry") }
        // The EXIF IFD comes from the JPEG EXIF writer, so rationals come out as cameras write them
        // (1/120, 9/5): libtiff 4.5.0 stores EXIF rationals as floats (8947849/1073741824 for 1/120).
        file.append(ExifWriter.exifDirectory(for: exif, imageTags: imageTags).serialize(at: exifOffset, next: 0))
    }
}
