import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct TIFFCodecTests {
    @Test func roundTripIsExact() throws {
        var image = Raster<UInt8>(width: 37, height: 19, channels: 3)
        for i in image.storage.indices { image.storage[i] = UInt8((i * 37 + i / 3) & 0xFF) }
        let data = try TIFFCodec.encode(image, orientation: 6)
        #expect(data.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]))
        for orientation in [1, 6] {
            let decoded = try TIFFCodec.decode(try TIFFCodec.encode(image, orientation: orientation))
            let same = decoded == image
            #expect(same, "orientation \(orientation) must not move pixels")
        }
    }

    @Test(arguments: [8, 16])
    func exifDescribesTheImageAsExifAsksOfATIFF(bits: Int) throws {
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        exif.iso = 100
        exif.colorSpace = 1
        let data: Data
        if bits == 8 {
            data = try TIFFCodec.encode(Raster<UInt8>(width: 8, height: 6, channels: 3, repeating: 90), exif: exif)
        } else {
            data = try TIFF16Writer.encode(Raster<UInt16>(width: 8, height: 6, channels: 3, repeating: 9000), exif: exif)
        }
        let reader = try TIFFTagReader(data)
        let ifd0 = try #require(try reader.mainDirectories().first)
        let exifIFD = try reader.directory(at: try #require(ifd0.integer(34665)))
        // FlashpixVersion and ColorSpace are required; pixel dimensions and ComponentsConfiguration are for compressed data.
        #expect(exifIFD.bytes(0xA000) == Array("0100".utf8) && exifIFD.integer(0xA001) == 1)
        #expect(!exifIFD.contains(0xA002) && !exifIFD.contains(0xA003) && !exifIFD.contains(0x9101))
        #expect(ifd0.integer(258) == bits && ifd0.string(271) == "OpenCapture" && exifIFD.integer(0x8827) == 100)
    }

    @Test func writingToAFileGivesTheEncodedBytesAndReportsFailures() throws {
        var image = Raster<UInt8>(width: 300, height: 200, channels: 3)
        for i in image.storage.indices { image.storage[i] = UInt8(truncatingIfNeeded: i * 7) }
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiff-\(UUID().uuidString).tif").path
        defer { unlink(path) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        try #require(descriptor >= 0)
        try TIFFCodec.write(image, to: descriptor, orientation: 6, exif: exif, iccProfile: ICCProfile.data(for: .sRGB))
        close(descriptor)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == (try TIFFCodec.encode(image, orientation: 6, exif: exif, iccProfile: ICCProfile.data(for: .sRGB))))
        #expect(try TIFFCodec.decode(written) == image)
        // A descriptor that cannot be written: the error, not a short file called a TIFF.
        let readOnly = open(path, O_RDONLY)
        defer { close(readOnly) }
        #expect(throws: MediaFormatError.writeFailed(SystemErrorReason.text(errno: EBADF))) {
            try TIFF16Writer.write(Raster<UInt16>(width: 8, height: 8, channels: 3, repeating: 1), to: readOnly)
        }
    }

    @Test func badInputThrows() throws {
        #expect(throws: MediaFormatError.self) { try TIFFCodec.decode(Data()) }
        #expect(throws: MediaFormatError.self) { try TIFFCodec.decode(Data("not a tiff at all".utf8)) }
        let good = try TIFFCodec.encode(Raster<UInt8>(width: 8, height: 8, channels: 3, repeating: 9))
        #expect(throws: MediaFormatError.self) { try TIFFCodec.decode(good.prefix(20)) }
        var garbage = Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F])
        garbage.append(Data(repeating: 0xAB, count: 64))
        #expect(throws: MediaFormatError.self) { try TIFFCodec.decode(garbage) }
    }

    /// A TIFF of 32-bit float samples (as ImageMagick and PIL write depth or HDR data): refused as unsupported, in
    /// libtiff's words, not as damaged.
    @Test func floatSamplesAreRefusedSayingWhy() throws {
        var ifd = TIFFDirectory()
        ifd.long(256, 2); ifd.long(257, 1); ifd.short(258, 32); ifd.short(259, 1); ifd.short(262, 1)
        ifd.long(273, 0); ifd.short(277, 1); ifd.long(278, 1); ifd.long(279, 8); ifd.short(339, 3)
        ifd.long(273, UInt32(8 + ifd.byteSize))
        let file = Data([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0] + ifd.serialize(at: 8, next: 0) + [UInt8](repeating: 0, count: 8))
        do {
            _ = try TIFFCodec.decode(file)
            Issue.record("a float TIFF decoded")
        } catch let error as MediaFormatError {
            guard case .unsupported(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("32-bit samples"), "\(why)")
        }
    }

    /// A TIFF whose directory comes first (as PIL and most cameras write it), cut inside its pixel data: an error, not
    /// an image with its missing rows filled in.
    @Test func pixelDataCutShortIsAnError() throws {
        func tiff(stripOffset: UInt32) -> Data {
            var b = TIFFBuilder(littleEndian: true)
            b.add(256, type: 3, b.u16(16))
            b.add(257, type: 3, b.u16(16))
            b.add(258, type: 3, b.u16(8) + b.u16(8) + b.u16(8))
            b.add(259, type: 3, b.u16(1))
            b.add(262, type: 3, b.u16(2))
            b.add(273, type: 4, b.u32(stripOffset))
            b.add(277, type: 3, b.u16(3))
            b.add(278, type: 3, b.u16(16))
            b.add(279, type: 4, b.u32(16 * 16 * 3))
            b.add(284, type: 3, b.u16(1))
            return b.data
        }
        let header = tiff(stripOffset: UInt32(tiff(stripOffset: 0).count))
        let whole = header + Data((0..<(16 * 16 * 3)).map { UInt8($0 % 251) })
        let expected: Int = (3 * (15 * 16 + 5) + 1) % 251
        let decoded = try TIFFCodec.decode(whole)
        #expect(Int(decoded[5, 15, 1]) == expected)
        #expect(throws: MediaFormatError.self) { try TIFFCodec.decode(whole.prefix(header.count + 16 * 16 * 3 / 2)) }
    }

    static let mcMaster = SharedData.file("data/demosaic/mcmaster18/1.tif")

    @Test(.enabled(if: mcMaster != nil, "McMaster data set not present in ../shared"))
    func mcMasterImageDecodes() throws {
        let image = try TIFFCodec.decode(Data(contentsOf: try #require(Self.mcMaster)))
        #expect(image.width == 500 && image.height == 500)
    }
}
