import CTIFF
import CaptureCore
import Foundation

/// An uncompressed RGB TIFF of 8- or 16-bit samples written strip by strip, the strips in any order and from any
/// thread, so a photo made in bands of rows goes to its file with no image of the whole photo in memory
/// (`RawDeveloper` writes its ISP's bands this way). The tags are `TIFFCodec.encode`'s: the Orientation recorded, not
/// applied, 72 pixels per inch, the ICC profile and EXIF when given. Each strip is put where it would be had the strips
/// come in order, so the file is the same whatever order they come in (and the same as `TIFFCodec.encode`'s for the
/// same strip height).
public final class TIFFStripWriter: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let bitsPerSample: Int
    /// Rows in every strip but the last; `write(rows:pixels:)` takes whole strips.
    public let rowsPerStrip: Int
    /// Bytes in one packed row of pixels.
    public var bytesPerRow: Int { width * 3 * bitsPerSample / 8 }

    private let exif: ExifMetadata?
    private let stream: TIFFStream
    /// Where the first strip starts (after the header libtiff writes when it opens the file).
    private let dataStart: Int
    /// Guards `tif`, `stripsWritten`, `failure` and every use of `stream` (libtiff's handle is single-threaded).
    private let lock = NSLock()
    private var tif: OpaquePointer?
    private var stripsWritten: [Bool]
    private var failure: MediaFormatError?

    /// Starts a TIFF in memory; `takeData()` hands it over once finished.
    public convenience init(width: Int, height: Int, bitsPerSample: Int = 8, rowsPerStrip: Int, orientation: Int = 1,
                            exif: ExifMetadata? = nil, iccProfile: Data? = nil) throws {
        let pixelBytes = width.multipliedReportingOverflow(by: height * 3 * bitsPerSample / 8)
        let stream = TIFFStream(capacity: pixelBytes.overflow ? 0 : pixelBytes.partialValue + 4096 + (iccProfile?.count ?? 0))
        try self.init(stream: stream, width: width, height: height, bitsPerSample: bitsPerSample, rowsPerStrip: rowsPerStrip,
                      orientation: orientation, exif: exif, iccProfile: iccProfile)
    }

    /// Starts a TIFF in the file open on `descriptor` (empty, open for reading and writing; the caller closes it).
    public convenience init(writingTo descriptor: Int32, width: Int, height: Int, bitsPerSample: Int = 8, rowsPerStrip: Int,
                            orientation: Int = 1, exif: ExifMetadata? = nil, iccProfile: Data? = nil) throws {
        try self.init(stream: TIFFStream(writingTo: descriptor), width: width, height: height, bitsPerSample: bitsPerSample,
                      rowsPerStrip: rowsPerStrip, orientation: orientation, exif: exif, iccProfile: iccProfile)
    }

    init(stream: TIFFStream, width: Int, height: Int, bitsPerSample: Int, rowsPerStrip: Int, orientation: Int,
         exif: ExifMetadata?, iccProfile: Data?) throws {
        guard bitsPerSample == 8 || bitsPerSample == 16, width > 0, height > 0, rowsPerStrip > 0 else {
            throw MediaFormatError.unsupported("TIFF encoding needs 8- or 16-bit RGB of at least one pixel and one row per strip")
        }
        guard width < 1 << 16, height < 1 << 16 else { throw MediaFormatError.unsupported("TIFF of \(width)×\(height) is too large") }
        (self.width, self.height, self.bitsPerSample, self.exif, self.stream) = (width, height, bitsPerSample, exif, stream)
        self.rowsPerStrip = min(rowsPerStrip, height)
        stripsWritten = Array(repeating: false, count: (height + self.rowsPerStrip - 1) / self.rowsPerStrip)
        guard let tif = stream.openForWriting() else {
            try stream.checkDescriptor()   // the header could not be written: say why
            throw MediaFormatError.encoderFailed("libtiff could not start a file")
        }
        self.tif = tif
        dataStart = stream.count
        var ok = [(TIFFTAG_IMAGEWIDTH, UInt32(width)), (TIFFTAG_IMAGELENGTH, UInt32(height)),
                  (TIFFTAG_ROWSPERSTRIP, UInt32(self.rowsPerStrip))]
            .allSatisfy { opencapture_tiff_set_u32(tif, ttag_t($0.0), $0.1) == 1 }
        let shorts: [(Int32, UInt16)] = [
            (TIFFTAG_BITSPERSAMPLE, UInt16(bitsPerSample)), (TIFFTAG_SAMPLESPERPIXEL, 3),
            (TIFFTAG_PHOTOMETRIC, UInt16(PHOTOMETRIC_RGB)), (TIFFTAG_PLANARCONFIG, UInt16(PLANARCONFIG_CONTIG)),
            (TIFFTAG_COMPRESSION, UInt16(COMPRESSION_NONE)), (TIFFTAG_ORIENTATION, UInt16(min(8, max(1, orientation)))),
            (TIFFTAG_RESOLUTIONUNIT, UInt16(RESUNIT_INCH)),
        ]
        ok = ok && shorts.allSatisfy { opencapture_tiff_set_u16(tif, ttag_t($0.0), $0.1) == 1 }
        var fields = TIFFFieldWriter(tif)
        TIFFCodec.setDescriptiveFields(&fields, exif: exif, iccProfile: iccProfile)
        guard ok, fields.refusedTag == nil else {
            TIFFClose(tif)
            self.tif = nil
            throw MediaFormatError.encoderFailed("libtiff refused the TIFF's tags")
        }
    }

    deinit { if let tif { TIFFClose(tif) } }

    /// Writes the strip of `rows` (it must start on a strip boundary and hold all the strip's rows) from `pixels`, its
    /// rows packed (`bytesPerRow` each, 16-bit samples in the host's order). Safe from any thread; a failure is kept and
    /// thrown by `finish()`.
    public func write(rows: Range<Int>, pixels: UnsafeRawBufferPointer) {
        let strip = rows.lowerBound / rowsPerStrip
        let count = rows.count * bytesPerRow
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil, let tif else { return }
        guard rows.lowerBound >= 0, rows.lowerBound % rowsPerStrip == 0, strip < stripsWritten.count,
              rows.upperBound == min(height, rows.lowerBound + rowsPerStrip), pixels.count >= count else {
            failure = .encoderFailed("rows \(rows) are not one whole strip of \(rowsPerStrip) rows of \(width)×\(height) pixels")
            return
        }
        guard !stripsWritten[strip] else { failure = .encoderFailed("strip \(strip) written twice"); return }
        stripsWritten[strip] = true
        let base = UnsafeMutableRawPointer(mutating: pixels.baseAddress!)
        stream.placeNextAppend(at: dataStart + strip * rowsPerStrip * bytesPerRow)
        defer { stream.placeNextAppend(at: nil) }
        if TIFFWriteEncodedStrip(tif, UInt32(strip), base, tmsize_t(count)) != count { failure = Self.writeFailure(stream) }
    }

    /// Writes the directory (and the EXIF), once every strip is written; throws the first failure — `.writeFailed` with
    /// the system's reason when the file could not be written.
    public func finish() throws {
        lock.lock()
        defer { lock.unlock() }
        guard let tif else { throw failure ?? MediaFormatError.encoderFailed("the TIFF was already finished") }
        self.tif = nil
        if failure == nil, let missing = stripsWritten.firstIndex(of: false) {
            failure = .encoderFailed("strip \(missing) of \(stripsWritten.count) was never written")
        }
        TIFFClose(tif)   // writes the directory
        try stream.checkDescriptor()
        if let failure { throw failure }
        if let exif { try DNGWriter.appendExif(exif, to: stream, imageTags: .uncompressed) }
        try stream.checkDescriptor()
    }

    /// The finished TIFF of a writer made in memory (`init(width:height:…)`); the writer must not be used afterwards.
    public func takeData() -> Data {
        lock.lock()
        defer { lock.unlock() }
        precondition(tif == nil, "a TIFF is taken once finished")
        return stream.takeData()
    }

    /// Why libtiff gave up: the file's write error when there was one (libtiff only sees a short count).
    private static func writeFailure(_ stream: TIFFStream) -> MediaFormatError {
        do { try stream.checkDescriptor() } catch let error as MediaFormatError { return error } catch {}
        return .encoderFailed("libtiff could not write the image")
    }
}
