import CTIFF
import CaptureCore
import Foundation

/// Baseline TIFF reading and writing with libtiff, in memory (through `TIFFClientOpen`).
/// Decoding accepts anything libtiff's RGBA interface reads (8/16-bit, strips or tiles, common
/// compressions) and returns 8-bit RGB; encoding writes uncompressed 8-bit RGB.
public enum TIFFCodec {
    /// Decodes the first image of a TIFF to 8-bit RGB.
    public static func decode(_ data: Data) throws -> Raster<UInt8> {
        guard data.count >= 8 else { throw data.isEmpty ? MediaFormatError.invalidImage("empty data") : MediaFormatError.truncated }
        let header = [UInt8](data.prefix(4))
        guard header == [0x49, 0x49, 0x2A, 0x00] || header == [0x4D, 0x4D, 0x00, 0x2A] else {
            throw MediaFormatError.invalidImage("not a TIFF (bad byte-order header)")
        }
        return try data.withUnsafeBytes { bytes in
            let file = TIFFStream(borrowing: bytes)
            guard let tif = file.openForReading() else { throw MediaFormatError.decoderFailed("libtiff could not read the directory") }
            defer { TIFFClose(tif) }
            var width: UInt32 = 0, height: UInt32 = 0
            guard opencapture_tiff_get_u32(tif, ttag_t(TIFFTAG_IMAGEWIDTH), &width) == 1,
                  opencapture_tiff_get_u32(tif, ttag_t(TIFFTAG_IMAGELENGTH), &height) == 1, width > 0, height > 0 else {
                throw MediaFormatError.invalidImage("TIFF without image dimensions")
            }
            let count = try ImageLimits.check(width: Int(width), height: Int(height), format: "TIFF")
            // Pixels come back in stored order: the Orientation tag is metadata, as in every other format here.
            var stored: UInt16 = UInt16(ORIENTATION_TOPLEFT)
            _ = opencapture_tiff_get_u16(tif, ttag_t(TIFFTAG_ORIENTATION), &stored)
            // libtiff says up front which images its RGBA interface cannot read (IEEE float samples, odd bit depths…).
            var why = [CChar](repeating: 0, count: 1024)
            guard TIFFRGBAImageOK(tif, &why) == 1 else {
                let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw MediaFormatError.unsupported("libtiff cannot read this TIFF's pixels: \(reason)")
            }
            var rgba = [UInt32](repeating: 0, count: count)
            let ok = rgba.withUnsafeMutableBufferPointer {
                // Stop on error: a strip cut short is an error, not rows left black.
                TIFFReadRGBAImageOriented(tif, width, height, $0.baseAddress, Int32(stored), 1)
            }
            guard ok == 1 else { throw MediaFormatError.decoderFailed("libtiff could not decode the image data (truncated or damaged)") }
            var rgb = [UInt8](repeating: 0, count: count * 3)
            for i in 0..<count {
                let p = rgba[i]  // ABGR packed: red in the low byte
                rgb[3 * i] = UInt8(truncatingIfNeeded: p)
                rgb[3 * i + 1] = UInt8(truncatingIfNeeded: p >> 8)
                rgb[3 * i + 2] = UInt8(truncatingIfNeeded: p >> 16)
            }
            return Raster(width: Int(width), height: Int(height), channels: 3, storage: rgb)
        }
    }

    /// Encodes 8-bit RGB (3 channels) as an uncompressed TIFF in strips of about 1 MB, with an
    /// Orientation tag (1…8) recorded, not applied. With `exif`, an EXIF IFD is written; with
    /// `iccProfile`, tag 34675. X/YResolution are 72 per inch.
    public static func encode(_ image: Raster<UInt8>, orientation: Int = 1, exif: ExifMetadata? = nil,
                              iccProfile: Data? = nil) throws -> Data {
        try encoded(image, orientation: orientation, exif: exif, iccProfile: iccProfile)
    }

    /// Writes the TIFF `encode` makes straight into the file open on `descriptor` (empty, open for reading and
    /// writing; the caller closes it), without a buffer of the whole file. A failing write throws `.writeFailed`.
    public static func write(_ image: Raster<UInt8>, to descriptor: Int32, orientation: Int = 1,
                             exif: ExifMetadata? = nil, iccProfile: Data? = nil) throws {
        try written(image, to: descriptor, orientation: orientation, exif: exif, iccProfile: iccProfile)
    }

    /// An RGB raster of 8- or 16-bit samples as an uncompressed TIFF in memory (`encode`, `TIFF16Writer.encode`).
    static func encoded<Sample>(_ image: Raster<Sample>, orientation: Int, exif: ExifMetadata?, iccProfile: Data?) throws -> Data {
        let stream = TIFFStream(capacity: image.storage.count * MemoryLayout<Sample>.stride + 4096 + (iccProfile?.count ?? 0))
        try write(image, into: stream, orientation: orientation, exif: exif, iccProfile: iccProfile)
        return stream.takeData()
    }

    /// The same TIFF written into `descriptor` (`write(_:to:)`, `TIFF16Writer.write(_:to:)`).
    static func written<Sample>(_ image: Raster<Sample>, to descriptor: Int32, orientation: Int, exif: ExifMetadata?,
                                iccProfile: Data?) throws {
        // TIFFStripWriter reports the file's own write error (`.writeFailed`) where libtiff gave up because of one.
        try write(image, into: TIFFStream(writingTo: descriptor), orientation: orientation, exif: exif, iccProfile: iccProfile)
    }

    private static func write<Sample>(_ image: Raster<Sample>, into stream: TIFFStream, orientation: Int, exif: ExifMetadata?,
                                      iccProfile: Data?) throws {
        let bits = MemoryLayout<Sample>.size * 8
        guard image.channels == 3, bits == 8 || bits == 16, image.width > 0, image.height > 0 else {
            throw MediaFormatError.unsupported("TIFF encoding needs 8- or 16-bit RGB, got \(image.channels) channels of \(bits) bits")
        }
        try image.storage.withUnsafeBytes { pixels in
            try writeRGB(pixels, width: image.width, height: image.height, bitsPerSample: bits, into: stream,
                         orientation: orientation, exif: exif, iccProfile: iccProfile)
        }
    }

    /// Uncompressed chunky RGB of `bitsPerSample` 8 or 16 (samples in the host's order, which is the little-endian
    /// file's) from `pixels`, rows packed, into `stream`, in strips of about 1 MB. libtiff appends uncompressed strips
    /// straight from the caller's memory, so each byte is copied once (into the stream's buffer or the file).
    private static func writeRGB(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bitsPerSample: Int, into file: TIFFStream,
                         orientation: Int, exif: ExifMetadata?, iccProfile: Data?) throws {
        let rowBytes = width * 3 * bitsPerSample / 8
        precondition(pixels.count >= rowBytes * height, "TIFF pixels shorter than their rows")
        let writer = try TIFFStripWriter(stream: file, width: width, height: height, bitsPerSample: bitsPerSample,
                                         rowsPerStrip: max(1, (1 << 20) / max(1, rowBytes)), orientation: orientation,
                                         exif: exif, iccProfile: iccProfile)
        for start in stride(from: 0, to: height, by: writer.rowsPerStrip) {
            let rows = start..<min(height, start + writer.rowsPerStrip)
            writer.write(rows: rows, pixels: UnsafeRawBufferPointer(rebasing: pixels[(start * rowBytes)..<(rows.upperBound * rowBytes)]))
        }
        try writer.finish()
    }

    /// Resolution (72 per inch, required by baseline TIFF), the ICC profile, identity tags and the ExifIFD (and
    /// GPSInfo) placeholder that `DNGWriter.appendExif` fills in after libtiff closes the file.
    static func setDescriptiveFields(_ f: inout TIFFFieldWriter, exif: ExifMetadata?, iccProfile: Data?) {
        f.double(TIFFTAG_XRESOLUTION, 72)
        f.double(TIFFTAG_YRESOLUTION, 72)
        if let iccProfile, !iccProfile.isEmpty { f.counted(TIFFTAG_ICCPROFILE, [UInt8](iccProfile)) }
        if let exif {
            // IFD0's share of the EXIF (the EXIF IFD holds the rest).
            f.ascii(TIFFTAG_MAKE, exif.make)
            f.ascii(TIFFTAG_MODEL, exif.model)
            f.ascii(TIFFTAG_SOFTWARE, exif.software)
            f.ascii(TIFFTAG_IMAGEDESCRIPTION, exif.imageDescription)
            f.ascii(TIFFTAG_ARTIST, exif.artist)
            f.ascii(TIFFTAG_COPYRIGHT, exif.copyright)
            f.u64(TIFFTAG_EXIFIFD, 0)
            if exif.gps != nil { f.u64(TIFFTAG_GPSIFD, 0) }
        }
    }
}
