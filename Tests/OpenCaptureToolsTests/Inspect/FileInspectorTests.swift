import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCaptureTools

@Suite struct FileInspectorTests {
    @Test func reportsADNGsTags() throws {
        let (raw, dng) = DevelopFixtures.frame
        let report = try FileInspector.inspect(dng)
        #expect(report.kind == .dng)
        #expect(report.width == raw.width && report.height == raw.height)
        #expect(report["DNGVersion"] == "1.4.0.0")
        #expect(report["UniqueCameraModel"] == "OpenCapture Simulated iPhone")
        #expect(report["CFAPattern"] == raw.cfa.rawValue.uppercased())
        #expect(report["WhiteLevel"] == "\(raw.whiteLevel)")
        #expect(report["BlackLevel"]?.split(separator: " ").count == 4)
        #expect(report["AsShotNeutral"]?.split(separator: " ").count == 3)
        #expect(report.value("Make", in: "EXIF") == "OpenCapture")
        #expect(report["FNumber"] == "f/1.8")
        #expect(report["ISO"] == "\(Int(raw.exposure.iso.rounded()))")
        #expect(report.thumbnailWidth != nil && report["Preview"] != nil)
        #expect(report.lines.contains("DNG") && report.lines.contains("  DNGVersion: 1.4.0.0"))
    }

    @Test func reportsAJPEGsExifThumbnailAndProfile() throws {
        var exif = DevelopFixtures.exif()
        exif.make = "OpenCapture"
        exif.model = "Simulated iPhone"
        exif.iso = 200
        exif.exposureTime = 1.0 / 60
        exif.orientation = 6
        exif.lensSpecification = [3.99, 3.99, 1.8, 1.8]
        exif.brightnessValue = 2.25
        exif.timeZoneOffsetSeconds = 5400
        let image = Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 128)
        let thumbnail = try JPEGEncoder.encode(Raster<UInt8>(width: 16, height: 12, channels: 3, repeating: 90))
        let jpeg = try JPEGEncoder.encode(image, exif: exif, thumbnailJPEG: thumbnail, iccProfile: ICCProfile.data(for: .displayP3))
        let report = try FileInspector.inspect(jpeg)
        #expect(report.kind == .jpeg && report.width == 64 && report.height == 48)
        #expect(report["Make"] == "OpenCapture" && report["Model"] == "Simulated iPhone")
        #expect(report["ExposureTime"] == "1/60 s" && report["ISO"] == "200" && report["FNumber"] == "f/1.8")
        #expect(report["FocalLength"]?.hasPrefix("3.99 mm") == true)
        #expect(report["Orientation"] == "6")
        #expect(report["Flash"]?.contains("did not fire") == true)
        #expect(report["DateTimeOriginal"]?.hasSuffix(" +01:30") == true, "\(report["DateTimeOriginal"] ?? "none")")
        #expect(report["LensSpecification"] == "3.99 mm f/1.8" && report["BrightnessValue"] == "2.25 EV")
        #expect(report.thumbnailWidth == 16 && report.thumbnailHeight == 12)
        #expect(report.iccProfileDescription == "Display P3")
        #expect(report["Encoding"] == "sequential, YCbCr 4:2:0")
    }

    @Test func aTwelveBitJPEGIsDescribedFromItsHeadersWithItsExif() throws {
        var exif = DevelopFixtures.exif()
        exif.make = "OpenCapture"
        var bytes = [UInt8](try JPEGEncoder.encode(Raster<UInt8>(width: 40, height: 30, channels: 3, repeating: 60), exif: exif))
        // Relabelled 12-bit extended (SOF1): libjpeg-turbo 2.1 (8-bit) cannot open it.
        let frame = try #require(try JPEGSegments.segments(in: Data(bytes)).first { $0.marker == 0xC0 })
        bytes[frame.offset + 1] = 0xC1
        bytes[frame.payload.lowerBound] = 12
        let report = try FileInspector.inspect(Data(bytes))
        #expect(report.kind == .jpeg && report.width == 40 && report.height == 30)
        #expect(report["Encoding"] == "sequential, 12-bit, YCbCr 4:2:0")
        #expect(report["Pixels"]?.contains("not decoded") == true)
        #expect(report.value("Make", in: "EXIF") == "OpenCapture")
        // Damage is still damage: a file with no frame header at all, or an impossible one, is refused; headers cut
        // short are a truncated file.
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(Data([0xFF, 0xD8, 0xFF, 0xD9])) }
        var sevenBit = bytes
        sevenBit[frame.payload.lowerBound] = 7
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(Data(sevenBit)) }
        let plain = try JPEGEncoder.encode(Raster<UInt8>(width: 40, height: 30, channels: 3, repeating: 60))
        let scan = try #require(try JPEGSegments.segments(in: plain).last)
        #expect(throws: FileInspectionError.truncated) { try FileInspector.inspect(plain.prefix(scan.payload.upperBound - 2)) }
    }

    /// A header claiming 65500×65500 over a 40×30 picture's data is a damaged file, said with the size it claims — not
    /// reported as a 65500×65500 photo.
    @Test func aJPEGHeaderClaimingMoreThanItsDataHoldsIsMalformed() throws {
        var bytes = [UInt8](try JPEGEncoder.encode(Raster<UInt8>(width: 40, height: 30, channels: 3, repeating: 60)))
        let frame = try #require(try JPEGSegments.segments(in: Data(bytes)).first { $0.marker == 0xC0 }).payload.lowerBound
        bytes.replaceSubrange(frame + 1...frame + 4, with: [0xFF, 0xDC, 0xFF, 0xDC])
        do {
            _ = try FileInspector.inspect(Data(bytes))
            Issue.record("a 65500×65500 claim over 40×30 data was reported")
        } catch FileInspectionError.malformed(let why) {
            #expect(why.contains("65500×65500") && why.contains("at least 25141254 bytes"), "\(why)")
        }
    }

    @Test func reportsPNGAndTIFFSizes() throws {
        let image = Raster<UInt8>(width: 30, height: 20, channels: 3, repeating: 7)
        let png = try FileInspector.inspect(try PNGCodec.encode(image))
        #expect(png.kind == .png && png.width == 30 && png.height == 20)
        let tiff = try FileInspector.inspect(try TIFFCodec.encode(image))
        #expect(tiff.kind == .tiff && tiff.width == 30 && tiff.height == 20)
        let tiff16 = try FileInspector.inspect(try TIFF16Writer.encode(Raster<UInt16>(width: 30, height: 20, channels: 3, repeating: 9)))
        #expect(tiff16.kind == .tiff && tiff16["Bits per sample"] == "16,16,16")
    }

    @Test func filesWithTheWrongExtensionAreRecognisedByContent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-renamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = Raster<UInt8>(width: 40, height: 24, channels: 3, repeating: 77)
        var options = HEIFEncodingOptions()
        options.thumbnailMaxDimension = nil
        let files: [(String, Data, InspectedFileKind)] = [
            ("photo.png", try JPEGEncoder.encode(image), .jpeg),
            ("photo.heic", try PNGCodec.encode(image), .png),
            ("photo.jpg", try HEIFEncoder.encode(image, options: options), .heif),
            ("photo.dng", try TIFFCodec.encode(image), .tiff),
            ("photo.tif", DevelopFixtures.frame.dng, .dng),
        ]
        for (name, data, kind) in files {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            let report = try FileInspector.inspect(contentsOf: url)
            #expect(report.kind == kind, "\(name)")
            if kind != .dng { #expect(report.width == 40 && report.height == 24, "\(name)") }
        }
    }

    @Test func aTruncatedPNGIsAnError() throws {
        let png = try PNGCodec.encode(Raster<UInt8>(width: 30, height: 20, channels: 3, repeating: 7))
        #expect(throws: FileInspectionError.truncated) { try FileInspector.inspect(png.dropLast(6)) }
        #expect(throws: FileInspectionError.truncated) { try FileInspector.inspect(png.prefix(30)) }
    }

    @Test func aJPEGCutInsideItsImageDataIsTruncated() throws {
        // Noise, so the entropy-coded data is long enough to cut through.
        var rng = SystemRandomNumberGenerator()
        let image = Raster<UInt8>(width: 64, height: 48, channels: 3, storage: (0..<(64 * 48 * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        let jpeg = try JPEGEncoder.encode(image)
        let scan = try #require(JPEGSegments.segments(in: jpeg).last(where: { $0.marker == 0xDA }))
        #expect(JPEGSegments.endOfImage(in: jpeg) == jpeg.count)
        #expect(try FileInspector.inspect(jpeg).kind == .jpeg)
        // Headers whole, image data cut: libjpeg reads the size, the file is damaged all the same.
        for end in [scan.payload.upperBound + 10, (scan.payload.upperBound + jpeg.count) / 2, jpeg.count - 2] {
            #expect(throws: FileInspectionError.truncated, "cut at \(end) of \(jpeg.count)") { try FileInspector.inspect(jpeg.prefix(end)) }
        }
        // Data after the end of the image (a Motion Photo's video, MPF's secondary images) is not damage.
        #expect(try FileInspector.inspect(jpeg + Data(repeating: 0x5A, count: 100)).kind == .jpeg)
    }

    /// A damaged embedded part is shown and listed among the report's problems; a whole file has none.
    @Test func aDamagedDepthMapIsAProblem() throws {
        let disparity = Raster<Float>(width: 64, height: 48, channels: 1, repeating: 0.5)
        let depth = DepthAuxiliaryImage(map: DepthMap(values: disparity, kind: .disparity, accuracy: .relative, isFiltered: true))
        let jpeg = try JPEGEncoder.encode(Raster<UInt8>(width: 128, height: 96, channels: 3, repeating: 90), depth: depth)
        #expect(try FileInspector.inspect(jpeg).problems.isEmpty)
        let index = try #require(try MultiPictureIndex.read(jpeg: jpeg))
        let report = try FileInspector.inspect(jpeg.prefix(index.entries[1].offset + 40))
        #expect(report.problems.count == 1 && report.problems.first?.hasPrefix("depth: ") == true, "\(report.problems)")
        #expect(report.value("Error", in: "Depth") != nil && report.width == 128)
    }

    @Test func damagedPNGsAndTIFFsAreErrors() throws {
        let png = try PNGCodec.encode(Raster<UInt8>(width: 30, height: 20, channels: 3, repeating: 7))
        var flipped = png
        flipped[flipped.count - 20] ^= 0x01   // inside IDAT (IEND is the last 12 bytes): the CRC no longer matches
        #expect(throws: FileInspectionError.malformed("PNG chunk IDAT: CRC mismatch")) { try FileInspector.inspect(flipped) }
        // A TIFF whose directory came first (as Pillow writes it) cut inside its pixel data.
        let image = Raster<UInt8>(width: 40, height: 30, channels: 3, repeating: 90)
        let tiff = try TIFFCodec.encode(image)
        #expect(try FileInspector.inspect(tiff).kind == .tiff)
        let reader = try TIFFTagReader(tiff)
        let ifd0 = try #require(try reader.mainDirectories().first)
        let lastStrip = try #require(ifd0.integers(273)?.max())
        if lastStrip > (try #require(ifd0.integers(273)?.min())), lastStrip < tiff.count {
            #expect(throws: FileInspectionError.truncated) { try FileInspector.inspect(tiff.prefix(lastStrip + 1)) }
        }
        // A DNG cut in half: its raw image (a SubIFD, or strips past the cut) is gone, though IFD0 still reads.
        let dng = DevelopFixtures.frame.dng
        #expect(try FileInspector.inspect(dng).kind == .dng)
        #expect(throws: FileInspectionError.truncated) { try FileInspector.inspect(dng.prefix(dng.count / 2)) }
    }

    @Test func garbageThrowsATypedError() throws {
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(Data()) }
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(Data(repeating: 0x42, count: 1000)) }
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(Data([0xFF, 0xD8, 0xFF])) }
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(Data([0x89, 0x50, 0x4E, 0x47, 0x0D])) }
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F])) }
        let dng = DevelopFixtures.frame.dng
        // A DNG cut inside its raw data still has readable tags; cut inside the header it does not.
        #expect(throws: FileInspectionError.self) { try FileInspector.inspect(dng.prefix(6)) }
    }
}
