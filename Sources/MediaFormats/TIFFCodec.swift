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
        let stream = MemoryStream(data: data)
        guard let tif = stream.open(mode: "r") else { throw MediaFormatError.decoderFailed("libtiff could not read the directory") }
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

    /// Encodes 8-bit RGB (3 channels) as an uncompressed, single-strip-per-row-block TIFF with an
    /// Orientation tag (1…8) recorded, not applied. With `exif`, an EXIF IFD is written; with
    /// `iccProfile`, tag 34675. X/YResolution are 72 per inch.
    public static func encode(_ image: Raster<UInt8>, orientation: Int = 1, exif: ExifMetadata? = nil,
                              iccProfile: Data? = nil) throws -> Data {
        guard image.channels == 3, image.width > 0, image.height > 0 else {
            throw MediaFormatError.unsupported("TIFF encoding needs 8-bit RGB")
        }
        let stream = TIFFMemoryFile(capacity: image.storage.count + 4096)
        guard let tif = stream.openForWriting() else { throw MediaFormatError.encoderFailed("libtiff could not start a file") }
        var fields: [(UInt32, UInt32)] = [
            (UInt32(TIFFTAG_IMAGEWIDTH), UInt32(image.width)), (UInt32(TIFFTAG_IMAGELENGTH), UInt32(image.height)),
            (UInt32(TIFFTAG_ROWSPERSTRIP), UInt32(max(1, 65_536 / (image.width * 3)))),
        ]
        let shorts: [(UInt32, UInt16)] = [
            (UInt32(TIFFTAG_BITSPERSAMPLE), 8), (UInt32(TIFFTAG_SAMPLESPERPIXEL), 3),
            (UInt32(TIFFTAG_PHOTOMETRIC), UInt16(PHOTOMETRIC_RGB)), (UInt32(TIFFTAG_PLANARCONFIG), UInt16(PLANARCONFIG_CONTIG)),
            (UInt32(TIFFTAG_COMPRESSION), UInt16(COMPRESSION_NONE)), (UInt32(TIFFTAG_ORIENTATION), UInt16(min(8, max(1, orientation)))),
            (UInt32(TIFFTAG_RESOLUTIONUNIT), UInt16(RESUNIT_INCH)),
        ]
        var ok = fields.allSatisfy { opencapture_tiff_set_u32(tif, $0.0, $0.1) == 1 }
        ok = ok && shorts.allSatisfy { opencapture_tiff_set_u16(tif, $0.0, $0.1) == 1 }
        fields.removeAll()
        var descriptive = TIFFFieldWriter(tif)
        setDescriptiveFields(&descriptive, exif: exif, iccProfile: iccProfile)
        ok = ok && descriptive.refusedTag == nil
        if ok {
            image.storage.withUnsafeBufferPointer { pixels in
                for y in 0..<image.height where ok {
                    let row = UnsafeMutableRawPointer(mutating: pixels.baseAddress! + y * image.rowStride)
                    ok = TIFFWriteScanline(tif, row, UInt32(y), 0) == 1
                }
            }
        }
        TIFFClose(tif)
        guard ok else { throw MediaFormatError.encoderFailed("libtiff could not write the image") }
        if let exif { try DNGWriter.appendExif(exif, to: stream) }
        return stream.takeData()
    }

    /// Resolution (72 per inch, required by baseline TIFF), the ICC profile, identity tags and the ExifIFD
    /// placeholder that `DNGWriter.appendExif` fills in after libtiff closes the file.
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
        }
    }
}

/// A growable in-memory file for `TIFFClientOpen`.
private final class MemoryStream {
    var data: Data
    var position = 0

    init(data: Data) {
        self.data = data
        opencapture_tiff_silence()
    }

    func open(mode: String) -> OpaquePointer? {
        let handle = Unmanaged.passUnretained(self).toOpaque()
        return TIFFClientOpen("memory", mode, handle,
            { handle, buffer, size in MemoryStream.from(handle).read(buffer, size) },
            { handle, buffer, size in MemoryStream.from(handle).write(buffer, size) },
            { handle, offset, whence in MemoryStream.from(handle).seek(offset, whence) },
            { _ in 0 },
            { handle in toff_t(MemoryStream.from(handle).data.count) },
            { _, _, _ in 0 },
            { _, _, _ in })
    }

    static func from(_ handle: thandle_t?) -> MemoryStream {
        Unmanaged<MemoryStream>.fromOpaque(UnsafeRawPointer(handle!)).takeUnretainedValue()
    }

    func read(_ buffer: tdata_t?, _ size: tmsize_t) -> tmsize_t {
        guard let buffer, size > 0, position < data.count else { return 0 }
        let count = min(Int(size), data.count - position)
        data.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: count) }
        position += count
        return tmsize_t(count)
    }

    func write(_ buffer: tdata_t?, _ size: tmsize_t) -> tmsize_t {
        guard let buffer, size > 0 else { return 0 }
        let end = position + Int(size)
        if end > data.count { data.append(Data(count: end - data.count)) }
        data.withUnsafeMutableBytes { ($0.baseAddress! + position).copyMemory(from: buffer, byteCount: Int(size)) }
        position = end
        return size
    }

    func seek(_ offset: toff_t, _ whence: Int32) -> toff_t {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END: base = data.count
        default: base = 0
        }
        let (target, overflow) = base.addingReportingOverflow(Int(Int64(bitPattern: offset)))
        guard !overflow, target >= 0 else { return toff_t(bitPattern: -1) }
        position = target
        return toff_t(target)
    }
}
