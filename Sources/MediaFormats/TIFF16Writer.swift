import CTIFF
import CaptureCore
import Foundation

/// Writes 16-bit-per-sample RGB TIFFs with libtiff, in memory (uncompressed, contiguous strips),
/// for developed photos that keep more than 8 bits. `TIFFCodec.decode` reads them back (as 8-bit).
public enum TIFF16Writer {
    /// Encodes 3-channel 16-bit RGB; `orientation` (1…8) is recorded, not applied. With `exif`, an
    /// EXIF IFD is written; with `iccProfile`, tag 34675. X/YResolution are 72 per inch.
    public static func encode(_ image: Raster<UInt16>, orientation: Int = 1, exif: ExifMetadata? = nil,
                              iccProfile: Data? = nil) throws -> Data {
        guard image.channels == 3, image.width > 0, image.height > 0 else {
            throw MediaFormatError.unsupported("16-bit TIFF encoding needs 3-channel RGB, got \(image.channels) channels")
        }
        guard image.width < 1 << 16, image.height < 1 << 16 else {
            throw MediaFormatError.unsupported("TIFF of \(image.width)×\(image.height) is too large")
        }
        let rowBytes = image.width * 6
        let file = TIFFMemoryFile(capacity: rowBytes * image.height + 4096)
        guard let tif = file.openForWriting() else { throw MediaFormatError.encoderFailed("libtiff could not start a file") }
        let rowsPerStrip = max(1, min(image.height, (1 << 20) / rowBytes))
        var ok = [(TIFFTAG_IMAGEWIDTH, UInt32(image.width)), (TIFFTAG_IMAGELENGTH, UInt32(image.height)),
                  (TIFFTAG_ROWSPERSTRIP, UInt32(rowsPerStrip))]
            .allSatisfy { opencapture_tiff_set_u32(tif, ttag_t($0.0), $0.1) == 1 }
        let shorts: [(Int32, UInt16)] = [
            (TIFFTAG_BITSPERSAMPLE, 16), (TIFFTAG_SAMPLESPERPIXEL, 3),
            (TIFFTAG_PHOTOMETRIC, UInt16(PHOTOMETRIC_RGB)), (TIFFTAG_PLANARCONFIG, UInt16(PLANARCONFIG_CONTIG)),
            (TIFFTAG_COMPRESSION, UInt16(COMPRESSION_NONE)), (TIFFTAG_ORIENTATION, UInt16(min(8, max(1, orientation)))),
            (TIFFTAG_RESOLUTIONUNIT, UInt16(RESUNIT_INCH)),
        ]
        ok = ok && shorts.allSatisfy { opencapture_tiff_set_u16(tif, ttag_t($0.0), $0.1) == 1 }
        var fields = TIFFFieldWriter(tif)
        TIFFCodec.setDescriptiveFields(&fields, exif: exif, iccProfile: iccProfile)
        ok = ok && fields.refusedTag == nil
        if ok {
            image.storage.withUnsafeBytes { bytes in
                var strip: UInt32 = 0
                for start in stride(from: 0, to: image.height, by: rowsPerStrip) where ok {
                    let count = min(rowsPerStrip, image.height - start) * rowBytes
                    let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start * rowBytes)
                    ok = TIFFWriteEncodedStrip(tif, strip, base, tmsize_t(count)) == count
                    strip += 1
                }
            }
        }
        TIFFClose(tif)
        guard ok else { throw MediaFormatError.encoderFailed("libtiff could not write the 16-bit image") }
        if let exif { try DNGWriter.appendExif(exif, to: file) }
        return file.takeData()
    }
}
