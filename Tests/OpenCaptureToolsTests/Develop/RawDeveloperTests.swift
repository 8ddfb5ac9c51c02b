import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import Testing
@testable import OpenCaptureTools

@Suite struct RawDeveloperTests {
    @Test func dngRoundTripMatchesThePipelineOnTheSameMosaic() throws {
        let (raw, dng) = DevelopFixtures.frame
        // With the camera's look (sharpening 0.5), a developed DNG is the camera's photo.
        var developer = RawDeveloper()
        developer.sharpening = ISPSettings().sharpening
        let developed = try developer.develop(dng, as: .png)
        #expect(developed.width == raw.width && developed.height == raw.height)
        let image = try PNGCodec.decode(developed.data)
        let direct = ImageSignalProcessor().process(raw)
        let psnr = ImageQuality.cpsnr(image, direct)
        #expect(psnr >= 40, "CPSNR \(psnr) dB between the developed DNG and the pipeline on the same RawImage")
        #expect(developed.info.dngVersion == "1.4.0.0")
        #expect(developed.info.make == "OpenCapture" && developed.info.model == "Simulated iPhone")
        #expect(developed.info.cfaPattern == raw.cfa.rawValue.uppercased())
        #expect(developed.info.whiteLevel == raw.whiteLevel)
        #expect(abs(developed.info.iso - raw.exposure.iso) < 1)
    }

    @Test(arguments: DevelopedFileFormat.allCases)
    func everyFormatDecodesAtTheRightSize(_ format: DevelopedFileFormat) throws {
        let (raw, dng) = DevelopFixtures.frame
        var developer = RawDeveloper()
        developer.demosaic = .bilinear
        let developed = try developer.develop(dng, as: format)
        #expect(developed.format == format)
        let image: Raster<UInt8>
        switch format {
        case .jpeg: image = try JPEGDecoder.decode(developed.data)
        case .png: image = try PNGCodec.decode(developed.data)
        case .tiff, .tiff16: image = try TIFFCodec.decode(developed.data)
        }
        #expect(image.width == raw.width && image.height == raw.height && image.channels == 3)
        // Every format carries the same rendering (JPEG within its compression loss).
        let reference = try PNGCodec.decode(try developer.develop(dng, as: .png).data)
        #expect(ImageQuality.cpsnr(image, reference) >= (format == .jpeg ? 30 : 45))
        // and the raw file's EXIF: its camera, exposure and orientation (PNG in an eXIf chunk).
        let report = try FileInspector.inspect(developed.data)
        #expect(report["Make"] == "OpenCapture", "\(format)")
        #expect(report["Orientation"] == String(developed.info.orientation), "\(format)")
        #expect(report["ExposureTime"] != nil, "\(format)")
    }

    @Test func sixteenBitTIFFKeepsSixteenBits() throws {
        let developed = try RawDeveloper().develop(DevelopFixtures.frame.dng, as: .tiff16)
        let reader = try TIFFTagReader(developed.data)
        let ifd0 = try #require(try reader.mainDirectories().first)
        #expect(ifd0.integers(258) == [16, 16, 16])
        #expect(developed.data.count > 320 * 240 * 6)
    }

    @Test func exposureCompensationBrightens() throws {
        var developer = RawDeveloper()
        let base = try PNGCodec.decode(try developer.develop(DevelopFixtures.frame.dng, as: .png).data)
        developer.exposureCompensation = 1
        let brighter = try PNGCodec.decode(try developer.develop(DevelopFixtures.frame.dng, as: .png).data)
        let mean = { (r: Raster<UInt8>) in r.storage.reduce(0) { $0 + Int($1) } / r.storage.count }
        #expect(mean(brighter) > mean(base) + 10)
    }

    @Test func developedJPEGCarriesTheRawFilesExif() throws {
        let developed = try RawDeveloper().develop(DevelopFixtures.frame.dng, as: .jpeg)
        let exif = try ExifReader.read(jpeg: developed.data)
        #expect(exif.make == "OpenCapture" && exif.model == "Simulated iPhone")
        #expect(exif.fNumber == 1.8)
        #expect(exif.software?.hasPrefix("OpenCapture") == true)
    }

    @Test(arguments: [DevelopedFileFormat.tiff, .tiff16, .jpeg])
    func developingIntoAFileWritesWhatDevelopingInMemoryEncodes(format: DevelopedFileFormat) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-develop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("in.dng"), out = folder.appendingPathComponent("out/photo")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try DevelopFixtures.frame.dng.write(to: raw)
        let file = try RawDeveloper().develop(contentsOf: raw, as: format, to: out)   // makes the folder "out"
        let inMemory = try RawDeveloper().develop(DevelopFixtures.frame.dng, as: format)
        #expect(try Data(contentsOf: out) == inMemory.data)
        #expect(file.byteCount == inMemory.data.count && file.width == inMemory.width && file.height == inMemory.height)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path) == ["photo"])
        // A destination that cannot be written is the destination's error, and leaves nothing.
        let blocked = raw.appendingPathComponent("photo.tif")   // "in.dng" is a file, not a folder
        #expect(throws: FileAccessError.self) { try RawDeveloper().develop(contentsOf: raw, as: format, to: blocked) }
    }

    @Test func developedFileKeepsTheCamerasOwnModelName() throws {
        // LibRaw splits a make it knows off the model ("Simulated Camera"); the developed file says what the raw said.
        let raw = DevelopFixtures.frame.raw
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "OpenCapture Simulated Camera",
                                           exif: DevelopFixtures.exif())
        let dng = try DNGWriter.write(raw, metadata: metadata, preview: nil)
        let exif = try ExifReader.read(jpeg: try RawDeveloper().develop(dng, as: .jpeg).data)
        #expect(exif.make == "OpenCapture" && exif.model == "OpenCapture Simulated Camera")
    }

    @Test func garbageAndTruncatedInputThrowTypedErrors() throws {
        let developer = RawDeveloper()
        #expect(throws: RawDevelopError.self) { try developer.develop(Data(), as: .jpeg) }
        #expect(throws: RawDevelopError.self) { try developer.develop(Data(repeating: 0x5A, count: 4096), as: .jpeg) }
        #expect(throws: RawDevelopError.self) { try developer.develop(Data("not a raw file at all".utf8), as: .png) }
        let dng = DevelopFixtures.frame.dng
        for fraction in [0.02, 0.3] {
            #expect(throws: RawDevelopError.self) { try developer.develop(dng.prefix(Int(Double(dng.count) * fraction)), as: .png) }
        }
        let missing = URL(fileURLWithPath: "/nonexistent/opencapture/none.dng")
        #expect(throws: RawDevelopError.unreadableFile(path: missing.path, reason: "no such file")) {
            try developer.develop(contentsOf: missing, as: .jpeg)
        }
        var bad = RawDeveloper()
        bad.exposureCompensation = .nan
        #expect(throws: RawDevelopError.self) { try bad.develop(dng, as: .jpeg) }
        bad = RawDeveloper()
        bad.jpegQuality = 2
        #expect(throws: RawDevelopError.self) { try bad.develop(dng, as: .jpeg) }
        #expect(!RawDevelopError.truncated.description.isEmpty)
    }
}

/// Developed files carry the raw file's EXIF, its orientation, an ICC profile and, for TIFF, the resolution tags.
@Suite struct RawDeveloperMetadataTests {
    @Test(arguments: [DevelopedFileFormat.tiff, .tiff16])
    func tiffOutputsCarryExifICCAndResolution(_ format: DevelopedFileFormat) throws {
        let developed = try RawDeveloper().develop(DevelopFixtures.frame.dng, as: format)
        let exif = try ExifReader.read(jpeg: developed.data)
        #expect(exif.make == "OpenCapture" && exif.model == "Simulated iPhone")
        #expect(exif.fNumber == 1.8)
        #expect(exif.colorSpace == 1)
        let ifd0 = try #require(try TIFFTagReader(developed.data).mainDirectories().first)
        #expect(ifd0.integer(274) == developed.info.orientation)
        #expect(ifd0.real(282) == 72 && ifd0.real(283) == 72 && ifd0.integer(296) == 2)
        let icc = try #require(ifd0.bytes(34675))
        #expect(ICCProfile.description(of: Data(icc)) == "sRGB IEC61966-2.1")
        #expect(try TIFFCodec.decode(developed.data).width == developed.width, "libtiff still reads it")
        #expect(try FileInspector.inspect(developed.data).iccProfileDescription == "sRGB IEC61966-2.1")
    }

    @Test func jpegOutputCarriesTheProfileOfItsPixels() throws {
        let developed = try RawDeveloper().develop(DevelopFixtures.frame.dng, as: .jpeg)
        #expect((try JPEGSegments.iccProfile(in: developed.data)).flatMap(ICCProfile.description(of:)) == "sRGB IEC61966-2.1")
        #expect(try ExifReader.read(jpeg: developed.data).orientation == developed.info.orientation)
    }
}
