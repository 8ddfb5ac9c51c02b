import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

/// Every reader turns truncated, bit-flipped, empty, wrong-type and oversized-header input into
/// a `MediaFormatError`, never a trap, and refuses huge declared dimensions before decoding.
@Suite struct HostileInputTests {
    /// A reader under test: name and a call that either succeeds or throws.
    struct Reader: CustomStringConvertible, Sendable {
        let description: String
        let read: @Sendable (Data) throws -> Void
    }

    static let readers: [Reader] = [
        Reader(description: "JPEG decode") { _ = try JPEGDecoder.decode($0) },
        Reader(description: "JPEG size") { _ = try JPEGDecoder.size(of: $0) },
        Reader(description: "EXIF") { _ = try ExifReader.read(jpeg: $0) },
        Reader(description: "EXIF thumbnail") { _ = try ExifReader.thumbnail(jpeg: $0) },
        Reader(description: "JPEG segments") { _ = try JPEGSegments.segments(in: $0) },
        Reader(description: "JPEG ICC") { _ = try JPEGSegments.iccProfile(in: $0) },
        Reader(description: "MPF index") { _ = try MultiPictureIndex.read(jpeg: $0) },
        Reader(description: "embedded depth") { _ = try EmbeddedDepthReader.read($0) },
        Reader(description: "embedded depth description") { _ = try EmbeddedDepthReader.describe($0) },
        Reader(description: "depth XMP") { _ = try DepthXMP.parse($0) },
        Reader(description: "PNG") { _ = try PNGCodec.decode($0) },
        Reader(description: "TIFF decode") { _ = try TIFFCodec.decode($0) },
        Reader(description: "TIFF tags") { data in
            let reader = try TIFFTagReader(data)
            for d in try reader.mainDirectories() + [] {
                for tag in d.tags { _ = (d.integers(tag), d.reals(tag), d.string(tag)) }
                _ = reader.subDirectories(of: d)
            }
        },
        Reader(description: "HEIF structure") { _ = try HEIFStructure.parse($0) },
        Reader(description: "HEIF info") { _ = try HEIFDecoder.info($0) },
        Reader(description: "HEIF decode") { _ = try HEIFDecoder.decode($0) },
        Reader(description: "raw (LibRaw)") { _ = try RawFileReader.read($0) },
        Reader(description: "Radiance HDR") { _ = try RadianceHDR.decode($0) },
    ]

    /// Small valid files of every kind, written by MediaFormats itself.
    static let samples: [(String, Data)] = {
        let image = TestImages.colourful(width: 64, height: 48)
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        exif.iso = 100
        var heif = HEIFEncodingOptions()
        heif.exif = exif
        heif.tileSize = 64
        heif.thumbnailMaxDimension = 16
        var hdr = Raster<Float>(width: 16, height: 4, channels: 3)
        for i in hdr.storage.indices { hdr.storage[i] = Float(i % 5) / 3 }
        let thumb = try! JPEGEncoder.encode(TestImages.colourful(width: 16, height: 12))
        return [
            ("jpeg", try! JPEGEncoder.encode(image, exif: exif, thumbnailJPEG: thumb, iccProfile: ICCProfile.data(for: .displayP3))),
            ("png", try! PNGCodec.encode(image)),
            ("tiff", try! TIFFCodec.encode(image)),
            ("heic", try! HEIFEncoder.encode(image, options: heif)),
            ("dng", try! DNGFixtures.dng(DNGFixtures.raw(width: 64, height: 48))),
            ("hdr", try! RadianceHDR.encode(hdr)),
        ]
    }()

    /// Runs `read` and accepts success or a `MediaFormatError`; anything else is a failure.
    static func expectTypedOutcome(_ reader: Reader, _ data: Data, _ what: String) {
        do {
            try reader.read(data)
        } catch is MediaFormatError {
        } catch {
            Issue.record("\(reader) on \(what) threw \(type(of: error)): \(error)")
        }
    }

    @Test(arguments: readers)
    func emptyAndTinyInputThrowTypedErrors(_ reader: Reader) {
        #expect(throws: MediaFormatError.self, "\(reader) on empty data") { try reader.read(Data()) }
        for junk in [Data([0]), Data([0xFF]), Data([0xFF, 0xD8]), Data("II*\0".utf8), Data("#?".utf8), Data(repeating: 0xFF, count: 64)] {
            Self.expectTypedOutcome(reader, junk, "\(junk.count) junk bytes")
        }
    }

    @Test(arguments: readers)
    func truncatedFilesOfEveryKindThrowTypedErrors(_ reader: Reader) {
        for (kind, file) in Self.samples {
            for cut in Set([1, 2, 4, 8, 12, 16, 24, 40, 64, 100, file.count / 3, file.count / 2, file.count - 10, file.count - 1]) where cut < file.count && cut > 0 {
                Self.expectTypedOutcome(reader, file.prefix(cut), "\(kind) cut to \(cut) bytes")
            }
        }
    }

    @Test(arguments: readers)
    func bitFlippedFilesOfEveryKindThrowTypedErrors(_ reader: Reader) {
        var random = SplitMix(seed: 8)
        for (kind, file) in Self.samples {
            for round in 0..<24 {
                var bad = file
                for _ in 0..<(1 + round % 4) {
                    let i = Int(random.next() % UInt64(bad.count))
                    bad[i] ^= UInt8(1 << (random.next() % 8))
                }
                Self.expectTypedOutcome(reader, bad, "\(kind) with bits flipped (round \(round))")
            }
        }
    }

    @Test func wrongTypeFilesAreRefusedByEveryDecoder() {
        let files = Dictionary(uniqueKeysWithValues: Self.samples)
        #expect(throws: MediaFormatError.self) { try JPEGDecoder.decode(files["png"]!) }
        #expect(throws: MediaFormatError.self) { try PNGCodec.decode(files["jpeg"]!) }
        #expect(throws: MediaFormatError.self) { try TIFFCodec.decode(files["heic"]!) }
        #expect(throws: MediaFormatError.self) { try HEIFDecoder.decode(files["tiff"]!) }
        #expect(throws: MediaFormatError.self) { try HEIFStructure.parse(files["jpeg"]!) }
        #expect(throws: MediaFormatError.self) { try RadianceHDR.decode(files["png"]!) }
        #expect(throws: MediaFormatError.self) { try RawFileReader.read(files["hdr"]!) }
        #expect(throws: MediaFormatError.self) { try TIFFTagReader(files["jpeg"]!) }
    }

    // MARK: - Oversized headers

    @Test func pngHeaderClaiming20000SquaredIsRefusedBeforeDecoding() throws {
        // A valid IHDR (CRC and all) declaring 20000×20000 RGB, followed by one tiny row.
        let png = RawPNG.make(width: 20000, height: 20000, bitDepth: 8, colorType: 2, rows: [[1, 2, 3]])
        #expect(png.count < 200)
        #expect(throws: MediaFormatError.unsupported("PNG of 20000×20000 is too large (limit 268435456 pixels)")) {
            try PNGCodec.decode(png)
        }
    }

    @Test func imageLimitsRefuseOverflowingAndHugeSizes() {
        #expect(throws: MediaFormatError.self) { try ImageLimits.check(width: 20000, height: 20000, format: "PNG") }
        #expect(throws: MediaFormatError.self) { try ImageLimits.check(width: Int.max, height: 3, format: "x") }
        #expect(throws: MediaFormatError.self) { try ImageLimits.check(width: 0, height: 3, format: "x") }
        #expect(throws: MediaFormatError.self) { try ImageLimits.check(width: 1 << 21, height: 1, format: "x") }
        #expect((try? ImageLimits.check(width: 16384, height: 16384, format: "x")) == 1 << 28)
    }

    @Test func radianceHeaderClaimingHugeImageIsRefused() {
        #expect(throws: MediaFormatError.unsupported("Radiance image of 99999×99999 is too large (limit 268435456 pixels)")) {
            try RadianceHDR.decode(Data("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 99999 +X 99999\n".utf8))
        }
    }

    @Test func tiffHeaderClaimingHugeImageIsRefused() throws {
        var tiff = TIFFBuilder(littleEndian: true)
        tiff.add(256, type: 4, [0x00, 0x00, 0x01, 0x00])     // ImageWidth 65536
        tiff.add(257, type: 4, [0x00, 0x00, 0x01, 0x00])     // ImageLength 65536
        tiff.add(258, type: 3, [8, 0])
        tiff.add(262, type: 3, [1, 0])
        tiff.add(273, type: 4, [8, 0, 0, 0])
        tiff.add(279, type: 4, [1, 0, 0, 0])
        let error = #expect(throws: MediaFormatError.self) { try TIFFCodec.decode(tiff.data) }
        #expect("\(error!)".contains("too large"), "\(String(describing: error))")
    }

    /// The 36-byte file from issue 8: `ftyp` plus an `ispe` whose width × height overflows.
    @Test func heifWithOverflowingIspeIsAnError() {
        var w = BMFFWriter()
        w.box("ftyp") { $0.fourCC("heic"); $0.u32(0) }
        w.fullBox("ispe") { $0.u32(0xFFFF_FFFF); $0.u32(0xFFFF_FFFF) }
        #expect(w.count == 36)
        #expect(throws: MediaFormatError.self) { try HEIFStructure.parse(w.data) }
        #expect(throws: MediaFormatError.self) { try HEIFDecoder.decode(w.data) }
        #expect(throws: MediaFormatError.self) { try HEIFDecoder.info(w.data) }
    }

    /// CI's fuzz run: a 2-tile 128×64 grid whose descriptor claims a 16384×16384 output made libheif
    /// allocate the whole canvas (3 GB under ASan). A grid's output must be what its tiles cover.
    @Test func heifGridClaimingMoreThanItsTilesIsRefusedBeforeDecoding() throws {
        let data = try Data(contentsOf: RepositoryPaths.fixtures.appendingPathComponent("Fuzz/heif-grid-output-beyond-tiles.heic"))
        let structure = try HEIFStructure.parse(data)
        #expect(structure.grid?.width == 16384)
        #expect(throws: MediaFormatError.self) { try structure.checkDecodable() }
        #expect(throws: MediaFormatError.self) { try HEIFDecoder.decode(data) }
    }

    @Test func absurdExifDatesAreNoDateNotAnOverflow() {
        #expect(ExifDate.parse("999999999999999:01:01 00:00:00", subSec: nil, offset: nil) == nil)
        #expect(ExifDate.parse("2024:13:01 00:00:00", subSec: nil, offset: nil) == nil)
        let utc = TimeZone(secondsFromGMT: 0)!
        let unreadable = ExifDate.parse("2024:01:01 00:00:00", subSec: "-5", offset: "+99999999999999:00", zone: utc)
        #expect(unreadable?.offsetSeconds == 0 && unreadable?.offsetRecorded == false)
        #expect(ExifDate.parse("2024:01:01 00:00:00", subSec: nil, offset: "+02:00")?.offsetSeconds == 7200)
    }

    @Test func regressionInputsFromFuzzingGiveTypedErrors() throws {
        let folder = RepositoryPaths.fixtures.appendingPathComponent("Fuzz")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for file in files where !file.lastPathComponent.hasPrefix(".") {
            let data = try Data(contentsOf: file)
            for reader in Self.readers { Self.expectTypedOutcome(reader, data, file.lastPathComponent) }
            _ = FileKind.of(data)
        }
    }

    /// The fuzzer's video target hands every input to `MovieFrameDecoder` (FFmpeg reads it by path, as any movie it
    /// demuxes, images included): each kept input gives a frame or a typed error, as the file it is.
    @Test func regressionInputsFromFuzzingDecodeAsMovieFramesOrTypedErrors() throws {
        let folder = RepositoryPaths.fixtures.appendingPathComponent("Fuzz")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        #expect(!files.isEmpty)
        for file in files where !file.lastPathComponent.hasPrefix(".") {
            do {
                let frame = try MovieFrameDecoder.frame(contentsOf: file)
                #expect(frame.channels == 3 && frame.storage.count == 3 * frame.width * frame.height, "\(file.lastPathComponent)")
            } catch is MediaFormatError {
            } catch {
                Issue.record("MovieFrameDecoder on \(file.lastPathComponent) threw \(type(of: error)): \(error)")
            }
        }
    }
}

/// A tiny deterministic generator for the mutation tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
