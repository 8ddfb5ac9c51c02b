import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

/// Tags of every TIFF type (1 BYTE … 13 IFD) are read with their real values, in both byte
/// orders, by the one value decoder (`TIFFTagReader` and `ExifReader` share it); issue 8 found
/// FLOAT, DOUBLE, SSHORT, SBYTE and IFD values trapping.
@Suite struct TIFFFieldTypeTests {
    /// Private tags 65000+ with one field of each type; values chosen to catch sign and order bugs.
    static func sample(littleEndian: Bool) -> Data {
        var t = TIFFBuilder(littleEndian: littleEndian)
        t.add(65001, type: 1, [7, 200])                                            // BYTE
        t.add(65002, type: 2, Array("Ab\0".utf8))                                  // ASCII
        t.add(65003, type: 3, t.u16(513) + t.u16(65535))                           // SHORT
        t.add(65004, type: 4, t.u32(70000) + t.u32(4_000_000_000))                // LONG
        t.add(65005, type: 5, t.u32(1) + t.u32(120) + t.u32(9) + t.u32(0))         // RATIONAL (x/0 → 0)
        t.add(65006, type: 6, [0xFF, 0x80, 0x05])                                  // SBYTE
        t.add(65007, type: 7, [1, 2, 3, 4, 5])                                     // UNDEFINED
        t.add(65008, type: 8, t.u16(UInt16(bitPattern: -2)) + t.u16(300))          // SSHORT
        t.add(65009, type: 9, t.u32(UInt32(bitPattern: -70000)))                   // SLONG
        t.add(65010, type: 10, t.u32(UInt32(bitPattern: -1)) + t.u32(3))           // SRATIONAL
        t.add(65011, type: 11, t.u32(Float(1.5).bitPattern) + t.u32(Float(-0.25).bitPattern))  // FLOAT
        t.add(65012, type: 12, t.u64(Double(3.141592653589793).bitPattern))        // DOUBLE
        t.add(65013, type: 13, t.u32(8))                                           // IFD
        t.add(65014, type: 3, count: 1000, t.u16(1))                               // count beyond the data: dropped
        t.add(65015, type: 99, [1, 2, 3, 4])                                       // unknown type: dropped
        return t.data
    }

    @Test(arguments: [true, false])
    func everyTypeReadsItsValues(littleEndian: Bool) throws {
        let reader = try TIFFTagReader(Self.sample(littleEndian: littleEndian))
        #expect(reader.isLittleEndian == littleEndian)
        let ifd = try #require(try reader.mainDirectories().first)
        #expect(ifd.integers(65001) == [7, 200])
        #expect(ifd.string(65002) == "Ab")
        #expect(ifd.integers(65003) == [513, 65535])
        #expect(ifd.integers(65004) == [70000, 4_000_000_000])
        #expect(ifd.reals(65005) == [1.0 / 120, 0])
        #expect(ifd.integers(65006) == [-1, -128, 5])
        #expect(ifd.integers(65007) == [1, 2, 3, 4, 5])
        #expect(ifd.integers(65008) == [-2, 300])
        #expect(ifd.integer(65009) == -70000)
        #expect(ifd.reals(65010) == [-1.0 / 3])
        #expect(ifd.reals(65011) == [1.5, -0.25])
        #expect(ifd.real(65012) == 3.141592653589793)
        #expect(ifd.integers(65013) == [8])
        #expect(ifd.type(65013) == 13 && ifd.count(65012) == 1)
        #expect(ifd.reals(65008) == [-2, 300])      // integers read as reals too
        #expect(ifd.integers(65011) == nil)         // but floats are not integers
        #expect(!ifd.contains(65014) && !ifd.contains(65015))
    }

    /// exiftool, an independent reader, agrees with ours on the same file.
    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolReadsTheSameValues() throws {
        let data = Self.sample(littleEndian: false)
        let result = try ExternalTool.exiftool.run(["-u", "-n", "-s", "-IFD0:all"], file: data, fileExtension: "tif")
        let output = result.output
        #expect(result.status == 0, "\(output)\(result.errorOutput)")
        // exiftool names unknown tags Exif_0xfde9 etc.; pick them up by tag number.
        func value(_ tag: Int) -> String? {
            output.split(separator: "\n").first { $0.lowercased().hasPrefix("exif_0x\(String(tag, radix: 16))") }
                .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
        }
        #expect(value(65006) == "-1 -128 5", "\(output)")
        #expect(value(65008) == "-2 300", "\(output)")
        #expect(value(65009) == "-70000", "\(output)")
        #expect(value(65011) == "1.5 -0.25", "\(output)")
        #expect(value(65012) == "3.14159265358979", "\(output)")
    }

    @Test func exifReaderUsesTheSameDecoderForFloatExposure() throws {
        // An EXIF IFD whose ExposureTime is a FLOAT and ISO an SSHORT: read, not trapped.
        var t = TIFFBuilder(littleEndian: true)
        t.add(0x010F, type: 2, Array("Maker\0".utf8))
        t.add(0x8769, type: 13, t.u32(0))  // patched below
        var bytes = [UInt8](t.data)
        // Append an EXIF IFD after the file and point 0x8769 at it.
        let exifOffset = bytes.count
        var e = TIFFBuilder(littleEndian: true)
        e.add(0x829A, type: 11, e.u32(Float(0.008).bitPattern))
        e.add(0x8827, type: 8, e.u16(400))
        let exifIFD = [UInt8](e.data)[8...]   // the directory only (its value area offsets are unused: all values inline)
        bytes += exifIFD
        let entry = 8 + 2 + 12 * 1            // second entry (0x8769) in sorted order
        bytes.replaceSubrange((entry + 8)..<(entry + 12), with: t.u32(UInt32(exifOffset)))
        let exif = try ExifReader.read(jpeg: Data(bytes))
        #expect(exif.make == "Maker")
        #expect(abs((exif.exposureTime ?? 0) - 0.008) < 1e-9)
        #expect(exif.iso == 400)
    }
}
