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
        let stream = TIFFStream(capacity: image.storage.count * 2 + 4096 + (iccProfile?.count ?? 0))
        try write(image, into: stream, orientation: orientation, exif: exif, iccProfile: iccProfile)
        return stream.takeData()
    }

    /// Writes the TIFF `encode` makes straight into the file open on `descriptor` (empty, open for reading and
    /// writing; the caller closes it). A failing write throws `.writeFailed`.
    public static func write(_ image: Raster<UInt16>, to descriptor: Int32, orientation: Int = 1,
                             exif: ExifMetadata? = nil, iccProfile: Data? = nil) throws {
        let stream = TIFFStream(writingTo: descriptor)
        do {
            try write(image, into: stream, orientation: orientation, exif: exif, iccProfile: iccProfile)
        } catch {
            try stream.checkDescriptor()   // a failed write is why libtiff gave up: say that
            throw error
        }
        try stream.checkDescriptor()
    }

    private static func write(_ image: Raster<UInt16>, into stream: TIFFStream, orientation: Int, exif: ExifMetadata?,
                              iccProfile: Data?) throws {
        guard image.channels == 3, image.width > 0, image.height > 0 else {
            throw MediaFormatError.unsupported("16-bit TIFF encoding needs 3-channel RGB, got \(image.channels) channels")
        }
        try image.storage.withUnsafeBytes { pixels in
            try TIFFCodec.writeRGB(pixels, width: image.width, height: image.height, bitsPerSample: 16, into: stream,
                                   orientation: orientation, exif: exif, iccProfile: iccProfile)
        }
    }
}
