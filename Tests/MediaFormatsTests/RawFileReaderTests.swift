import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct RawFileReaderTests {
    @Test func readsOwnDNGBackExactly() throws {
        let raw = DNGFixtures.raw()
        let (read, info) = try RawFileReader.read(try DNGFixtures.dng(raw))
        #expect(read.width == raw.width && read.height == raw.height)
        #expect(read.bayer == raw.bayer)
        #expect(read.cfa == .rggb)
        #expect(read.blackLevel == [528, 528, 528, 528])
        #expect(read.whiteLevel == 16383)
        #expect(read.bitDepth == 14)
        #expect(abs(read.asShotNeutral.x - raw.asShotNeutral.x) < 1e-4)
        #expect(abs(read.asShotNeutral.y - 1) < 1e-6)
        #expect(abs(read.asShotNeutral.z - raw.asShotNeutral.z) < 1e-4)
        for (a, b) in zip(read.cameraToSRGB.m, raw.cameraToSRGB.m) { #expect(abs(a - b) < 1e-3) }
        #expect(info.make == "OpenCapture")
        #expect(info.model == "Simulated iPhone")
        #expect(info.dngVersion == 0x0104_0000)
        #expect(info.iso == 200)
        #expect(abs(info.exposureTime - 1.0 / 120) < 1e-6)
        #expect(abs(info.fNumber - 1.8) < 1e-4)
        #expect(abs(info.focalLength - 3.99) < 1e-3)
        #expect(info.timestamp != nil)
        #expect(info.orientation == 1)
        #expect(read.exposure.iso == 200)
        #expect(read.noiseProfile.count == 3)
        for (a, b) in zip(read.noiseProfile, raw.noiseProfile) { #expect(a.scale == b.scale && a.offset == b.offset) }
    }

    /// Every TIFF orientation a DNG states reads back as itself: the mirrored ones (2, 4, 5, 7 — LibRaw's flips 1, 2,
    /// 4, 7) read as 1, so a mirrored DNG developed unmirrored and one stored transposed (5, 7) was sized landscape.
    @Test(arguments: 1...8)
    func everyOrientationReadsBack(_ orientation: Int) throws {
        let raw = DNGFixtures.raw(width: 64, height: 48)
        var metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Turned", exif: DNGFixtures.exif())
        metadata.orientation = orientation
        let (_, info) = try RawFileReader.read(try DNGWriter.write(raw, metadata: metadata, preview: nil))
        #expect(info.orientation == orientation)
    }

    @Test(arguments: CFAPattern.allCases)
    func everyCFAPatternRoundTrips(_ cfa: CFAPattern) throws {
        var raw = DNGFixtures.raw(width: 64, height: 48, cfa: cfa)
        raw.blackLevel = [510, 520, 530, 540]
        let (read, _) = try RawFileReader.read(try DNGFixtures.dng(raw))
        #expect(read.cfa == cfa)
        #expect(read.bayer == raw.bayer)
        #expect(read.blackLevel == raw.blackLevel)
    }

    @Test func multipleStripsReadBack() throws {
        let raw = DNGFixtures.raw(width: 96, height: 64)
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Strips", exif: DNGFixtures.exif())
        let data = try DNGWriter.write(raw, metadata: metadata, preview: nil, stripBytes: 96 * 2 * 6)
        let read = try RawFileReader.read(data)
        #expect(read.raw.bayer == raw.bayer)
        // The file's EXIF comes with it (the developer writes it on, without parsing the file a second time).
        let exif = try #require(read.info.exif)
        #expect(exif.lensModel == "Simulated back camera 3.99mm f/1.8" && exif.iso == 200 && exif.fNumber == 1.8)
        #expect(exif.dateTimeOriginal == DNGFixtures.exif().dateTimeOriginal)
    }

    @Test func badInputThrows() throws {
        #expect(throws: MediaFormatError.self) { try RawFileReader.read(Data()) }
        #expect(throws: MediaFormatError.self) { try RawFileReader.read(Data(repeating: 0x5A, count: 4096)) }
        var garbage = RandomSource(seed: 7)
        #expect(throws: MediaFormatError.self) {
            try RawFileReader.read(Data((0..<10_000).map { _ in UInt8(truncatingIfNeeded: garbage.next()) }))
        }
        let dng = try DNGFixtures.dng()
        for length in [8, 200, dng.count / 2, dng.count - 1000] {
            #expect(throws: MediaFormatError.self, "truncated to \(length) bytes") { try RawFileReader.read(dng.prefix(length)) }
        }
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 32, height: 32))
        #expect(throws: MediaFormatError.self) { try RawFileReader.read(jpeg) }
        // A short text file is not a raw file at all, not a truncated one; a DNG cut before its directory is truncated.
        #expect { try RawFileReader.read(Data("hello, this is text".utf8)) } throws: { error in
            if case MediaFormatError.invalidImage = error { return true } else { return false }
        }
        #expect(throws: MediaFormatError.truncated) { try RawFileReader.read(dng.prefix(dng.count / 2)) }
        #expect(throws: MediaFormatError.self) {
            try RawFileReader.read(contentsOf: URL(fileURLWithPath: "/nonexistent/file.dng"))
        }
    }
}

@Suite struct LosslessJPEGDNGTests {
    @Test(arguments: [(256, 192), (300, 222), (64, 48), (100, 40)])
    func losslessJPEGReadsBackExactly(_ size: (Int, Int)) throws {
        let raw = DNGFixtures.raw(width: size.0, height: size.1, cfa: .gbrg)
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "LJ92", exif: DNGFixtures.exif())
        let data = try DNGWriter.write(raw, metadata: metadata, preview: nil, compression: .losslessJPEG)
        let uncompressed = try DNGWriter.write(raw, metadata: metadata, preview: nil)
        #expect(data.count < uncompressed.count)
        let (read, _) = try RawFileReader.read(data)
        #expect(read.cfa == .gbrg)
        #expect(read.width == raw.width && read.height == raw.height)
        #expect(zip(read.bayer.storage, raw.bayer.storage).filter { $0 != $1 }.count == 0)
    }

    @Test func extremeValuesSurvive() throws {
        var raw = DNGFixtures.raw(width: 64, height: 48)
        raw.whiteLevel = 32767
        for i in raw.bayer.storage.indices { raw.bayer.storage[i] = i % 3 == 0 ? 0 : (i % 3 == 1 ? 32767 : UInt16(i % 32768)) }
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "LJ92", exif: DNGFixtures.exif())
        let data = try DNGWriter.write(raw, metadata: metadata, preview: nil, compression: .losslessJPEG)
        let read = try RawFileReader.read(data).raw
        #expect(zip(read.bayer.storage, raw.bayer.storage).filter { $0 != $1 }.count == 0)
        raw.bayer.storage[5] = 40_000
        raw.whiteLevel = 65535
        #expect(throws: MediaFormatError.self) { try DNGWriter.write(raw, metadata: metadata, preview: nil, compression: .losslessJPEG) }
    }
}
