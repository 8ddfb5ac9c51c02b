import CTIFF
import CaptureCore
import Foundation

/// Writes 16-bit-per-sample RGB TIFFs with libtiff, in memory (uncompressed strips; `TIFFCodec`'s writer),
/// for developed photos that keep more than 8 bits. `TIFFCodec.decode` reads them back (as 8-bit).
public enum TIFF16Writer {
    /// Encodes 3-channel 16-bit RGB; `orientation` (1…8) is recorded, not applied. With `exif`, an
    /// EXIF IFD is written; with `iccProfile`, tag 34675. X/YResolution are 72 per inch.
    public static func encode(_ image: Raster<UInt16>, orientation: Int = 1, exif: ExifMetadata? = nil,
                              iccProfile: Data? = nil) throws -> Data {
        try TIFFCodec.encoded(image, orientation: orientation, exif: exif, iccProfile: iccProfile)
    }

    /// Writes the TIFF `encode` makes straight into the file open on `descriptor` (empty, open for reading and
    /// writing; the caller closes it). A failing write throws `.writeFailed`.
    public static func write(_ image: Raster<UInt16>, to descriptor: Int32, orientation: Int = 1,
                             exif: ExifMetadata? = nil, iccProfile: Data? = nil) throws {
        try TIFFCodec.written(image, to: descriptor, orientation: orientation, exif: exif, iccProfile: iccProfile)
    }
}
