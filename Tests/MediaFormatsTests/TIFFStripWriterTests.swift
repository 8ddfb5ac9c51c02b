import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

/// Strips written in any order and from two threads make the TIFF `TIFFCodec.encode` would, as its readers see it;
/// a strip missing, given twice or cut wrong, or a file that cannot be written, is an error from `finish()`.
@Suite struct TIFFStripWriterTests {
    static func image<Sample: FixedWidthInteger>(_: Sample.Type, width: Int = 301, height: Int = 203) -> Raster<Sample> {
        var image = Raster<Sample>(width: width, height: height, channels: 3)
        for i in image.storage.indices { image.storage[i] = Sample(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        return image
    }

    /// Writes `image` through a writer on a new file, strips in `order` (indexes), two threads taking turns.
    static func write<Sample>(_ image: Raster<Sample>, rowsPerStrip: Int, order: [Int], exif: ExifMetadata? = nil) throws -> Data {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strips-\(UUID().uuidString).tif").path
        defer { unlink(path) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = try TIFFStripWriter(writingTo: descriptor, width: image.width, height: image.height,
                                         bitsPerSample: MemoryLayout<Sample>.size * 8, rowsPerStrip: rowsPerStrip,
                                         orientation: 6, exif: exif)
        let rowBytes = writer.bytesPerRow
        let storage = image.storage, height = image.height
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for (k, strip) in order.enumerated() where k % 2 == worker {
                let rows = strip * rowsPerStrip..<min(height, (strip + 1) * rowsPerStrip)
                storage.withUnsafeBytes { bytes in
                    writer.write(rows: rows, pixels: UnsafeRawBufferPointer(rebasing: bytes[rows.lowerBound * rowBytes..<rows.upperBound * rowBytes]))
                }
            }
        }
        try writer.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func stripsInAnyOrderFromTwoThreadsMakeTheImage() throws {
        let image = Self.image(UInt8.self)
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        let data = try Self.write(image, rowsPerStrip: 29, order: Array((0..<7).reversed()), exif: exif)   // 203 rows: 7 strips
        #expect(try TIFFCodec.decode(data) == image)
        #expect(ExifReader.read(photo: data)?.make == "OpenCapture")
        // The same file whatever the order, and the same as one written in order in memory.
        #expect(try Self.write(image, rowsPerStrip: 29, order: [3, 0, 6, 1, 5, 2, 4], exif: exif) == data)
        let inMemory = try TIFFStripWriter(width: image.width, height: image.height, rowsPerStrip: 29, orientation: 6, exif: exif)
        image.storage.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: image.height, by: 29) {
                let rows = start..<min(image.height, start + 29)
                inMemory.write(rows: rows, pixels: UnsafeRawBufferPointer(rebasing: bytes[rows.lowerBound * 903..<rows.upperBound * 903]))
            }
        }
        try inMemory.finish()
        #expect(inMemory.takeData() == data)
        let sixteen = Self.image(UInt16.self, width: 64, height: 50)
        let data16 = try Self.write(sixteen, rowsPerStrip: 8, order: [3, 0, 6, 1, 5, 2, 4])
        #expect(data16.count > 64 * 50 * 6)
        // The 16-bit samples as written: TIFFCodec.decode gives 8 bits, so compare the in-memory encoding's reading.
        #expect(try TIFFCodec.decode(data16) == TIFFCodec.decode(TIFF16Writer.encode(sixteen)))
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolReadsStripsOutOfOrder() throws {
        let data = try Self.write(Self.image(UInt8.self), rowsPerStrip: 32, order: [6, 5, 4, 3, 2, 1, 0])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strips-\(UUID().uuidString).tif")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let output = try ExternalTool.exiftool.run(["-s", "-s", "-s", "-ImageWidth", "-ImageHeight", "-RowsPerStrip", "-Orientation#",
                                                    "-Warning", url.path]).output
        #expect(output.split(separator: "\n").map(String.init) == ["301", "203", "32", "6"])
    }

    @Test func aMissingDoubledOrMiscutStripIsAnError() throws {
        let image = Self.image(UInt8.self, width: 16, height: 20)
        #expect(throws: MediaFormatError.encoderFailed("strip 2 of 3 was never written")) {
            try Self.write(image, rowsPerStrip: 8, order: [0, 1])
        }
        #expect(throws: MediaFormatError.encoderFailed("strip 1 written twice")) {
            try Self.write(image, rowsPerStrip: 8, order: [0, 1, 1, 2])
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strips-\(UUID().uuidString).tif").path
        defer { unlink(path) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(descriptor) }
        let writer = try TIFFStripWriter(writingTo: descriptor, width: 16, height: 20, rowsPerStrip: 8)
        let bytes = [UInt8](repeating: 0, count: 16 * 3 * 20)
        bytes.withUnsafeBytes { writer.write(rows: -8..<0, pixels: $0) }   // no strip: an error, not a trap
        #expect(throws: MediaFormatError.encoderFailed("rows -8..<0 are not one whole strip of 8 rows of 16×20 pixels")) {
            try writer.finish()
        }
        let other = try TIFFStripWriter(writingTo: descriptor, width: 16, height: 20, rowsPerStrip: 8)
        bytes.withUnsafeBytes { other.write(rows: 4..<12, pixels: $0) }
        #expect(throws: MediaFormatError.encoderFailed("rows 4..<12 are not one whole strip of 8 rows of 16×20 pixels")) {
            try other.finish()
        }
        #expect(throws: MediaFormatError.encoderFailed("rows 4..<12 are not one whole strip of 8 rows of 16×20 pixels")) {
            try other.finish()   // and again: the failure is kept
        }
    }

    @Test func aFileThatCannotBeWrittenSaysWhy() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strips-\(UUID().uuidString).tif").path
        defer { unlink(path) }
        close(open(path, O_RDWR | O_CREAT | O_EXCL, 0o644))
        let readOnly = open(path, O_RDONLY)
        defer { close(readOnly) }
        #expect(throws: MediaFormatError.writeFailed(SystemErrorReason.text(errno: EBADF))) {
            try TIFFStripWriter(writingTo: readOnly, width: 16, height: 8, rowsPerStrip: 8)   // libtiff writes the header at once
        }
    }

    @Test func badShapesAreRefused() {
        #expect(throws: MediaFormatError.self) { try TIFFStripWriter(writingTo: -1, width: 0, height: 8, rowsPerStrip: 8) }
        #expect(throws: MediaFormatError.self) { try TIFFStripWriter(writingTo: -1, width: 8, height: 8, bitsPerSample: 12, rowsPerStrip: 8) }
        #expect(throws: MediaFormatError.unsupported("TIFF of 70000×8 is too large")) {
            try TIFFStripWriter(writingTo: -1, width: 70_000, height: 8, rowsPerStrip: 8)
        }
    }
}
