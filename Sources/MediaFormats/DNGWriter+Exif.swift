import Foundation

extension DNGWriter {
    /// Appends the EXIF IFD (and the GPS IFD when `exif.gps` is set) to libtiff's file and points IFD0's ExifIFD
    /// (GPSInfo) entry, a placeholder libtiff wrote, at it. Also retypes the SubIFDs, ExifIFD and GPSInfo pointers
    /// from IFD (13), which libtiff uses, to LONG (4), which DNG, EXIF and `exiftool -validate` expect; both are 4 bytes. An RGB TIFF's EXIF also
    /// describes its image (`imageTags: .uncompressed`).
    static func appendExif(_ exif: ExifMetadata, to file: TIFFStream, imageTags: ExifWriter.ImageTags = .none) throws {
        if file.count & 1 == 1 { file.append([0]) }
        let exifOffset = file.count
        let exifIFD = ExifWriter.exifDirectory(for: exif, imageTags: imageTags)
        let gpsIFD = exif.gps.map(ExifWriter.gpsDirectory)
        let gpsOffset = exifOffset + exifIFD.byteSize
        guard gpsOffset + (gpsIFD?.byteSize ?? 0) < Int(UInt32.max) else { throw MediaFormatError.encoderFailed("DNG larger than 4 GB") }
        var linked = false, gpsLinked = false
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
            guard tag == 0x014A || tag == 0x8769 || tag == 0x8825 else { continue }
            if u16(entry + 2) == 13 { entries[entry + 2] = 4 }
            func point(at offset: Int) {
                for b in 0..<4 { entries[entry + 8 + b] = UInt8(truncatingIfNeeded: offset >> (8 * b)) }
            }
            if tag == 0x8769 { point(at: exifOffset); linked = true }
            if tag == 0x8825, gpsIFD != nil { point(at: gpsOffset); gpsLinked = true }
        }
        file.overwrite(entries, at: ifd0 + 2)
        guard linked else { throw MediaFormatError.encoderFailed("libtiff did not write the ExifIFD entry") }
        guard gpsLinked || gpsIFD == nil else { throw MediaFormatError.encoderFailed("libtiff did not write the GPSInfo entry") }
        // The EXIF IFD comes from the JPEG EXIF writer, so rationals come out as cameras write them
        // (1/120, 9/5): libtiff 4.5.0 stores EXIF rationals as floats (8947849/1073741824 for 1/120).
        file.append(exifIFD.serialize(at: exifOffset, next: 0))
        if let gpsIFD { file.append(gpsIFD.serialize(at: gpsOffset, next: 0)) }
    }
}
