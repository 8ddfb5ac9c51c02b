import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct DNGWriterTests {
    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolValidatesAndReadsTags() throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("frame.dng")
        try DNGFixtures.dng().write(to: file)
        let result = try ExternalTool.exiftool.run(["-j", "-n", "-G1", "-a", "-warning", "-validate", "-all:all", file.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let json = try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]]
        let tags = (json?.first ?? [:]).mapValues { "\($0)" }
        #expect(tags["ExifTool:Validate"] == "0 0 0", "validate: \(tags["ExifTool:Validate"] ?? "-"), \(tags["ExifTool:Warning"] ?? "")")
        #expect(tags["ExifTool:Warning"] == nil)
        #expect(tags["File:FileType"] == "DNG")
        #expect(tags["IFD0:DNGVersion"] == "1 4 0 0")
        #expect(tags["IFD0:UniqueCameraModel"] == "OpenCapture Simulated iPhone")
        #expect(tags["IFD0:CalibrationIlluminant1"] == "21")
        #expect(tags["IFD0:PreviewColorSpace"] == "2", "the preview is sRGB")
        let neutral = tags["IFD0:AsShotNeutral"]?.split(separator: " ").compactMap { Double($0) } ?? []
        #expect(neutral.count == 3 && abs(neutral[0] - 0.48) < 1e-5 && neutral[1] == 1)
        #expect(tags["IFD0:NoiseProfile"]?.split(separator: " ").count == 6)
        #expect(tags["IFD0:ForwardMatrix1"]?.split(separator: " ").count == 9)
        #expect(tags["IFD0:ColorMatrix1"]?.split(separator: " ").count == 9)
        #expect(tags["SubIFD:CFAPattern2"] == "0 1 1 2")
        #expect(tags["SubIFD:PhotometricInterpretation"] == "32803")
        #expect(tags["SubIFD:BlackLevel"] == "528 528 528 528")
        #expect(tags["SubIFD:WhiteLevel"] == "16383")
        #expect(tags["SubIFD:ImageWidth"] == "256" && tags["SubIFD:ImageHeight"] == "192")
        #expect(Double(tags["ExifIFD:ExposureTime"] ?? "") .map { abs($0 - 1.0 / 120) < 1e-6 } == true)
        #expect(tags["ExifIFD:ISO"] == "200")
        #expect(tags["ExifIFD:FNumber"] == "1.8")
    }

    /// A location in the EXIF becomes the DNG's GPS IFD (IFD0's GPSInfo), read back by ours and by exiftool; without
    /// one there is no GPS IFD.
    @Test func gpsGoesIntoItsOwnIFD() throws {
        var exif = DNGFixtures.exif()
        exif.gps = GPSInfo(latitude: -33.856_78, longitude: 151.215_30, altitude: 4.5, timestamp: Date(timeIntervalSince1970: 1_700_000_000))
        exif.gps?.imageDirection = 12.5
        let metadata = DNGMetadata.derived(from: DNGFixtures.raw(), make: "OpenCapture", model: "Simulated iPhone", exif: exif)
        let data = try DNGWriter.write(DNGFixtures.raw(), metadata: metadata, preview: nil)
        let gps = try #require(try ExifReader.read(jpeg: data).gps)
        #expect(abs(gps.latitude + 33.856_78) < 1e-6 && abs(gps.longitude - 151.215_30) < 1e-6)
        #expect(gps.altitude == 4.5 && gps.timestamp == exif.gps?.timestamp && gps.imageDirection == 12.5)
        #expect(try ExifReader.read(jpeg: DNGFixtures.dng()).gps == nil)
        #expect(try RawFileReader.read(data).raw.width == 256, "the raw still reads")
        if ExternalTool.exiftool.isInstalled {
            let result = try ExternalTool.exiftool.run(["-j", "-n", "-G1", "-validate", "-warning", "-GPS:all"], file: data, fileExtension: "dng")
            let json = try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]]
            let tags = (json?.first ?? [:]).mapValues { "\($0)" }
            #expect(tags["ExifTool:Validate"] == "0 0 0", "\(tags)")
            #expect(tags["GPS:GPSLatitudeRef"] == "S" && tags["GPS:GPSLongitudeRef"] == "E")
            #expect(Double(tags["GPS:GPSLatitude"] ?? "").map { abs($0 - 33.856_78) < 1e-6 } == true)
            #expect(tags["GPS:GPSDateStamp"] == "2023:11:14" && tags["GPS:GPSImgDirection"] == "12.5")
        }
    }

    /// A frame's baseline exposure goes into the DNG's BaselineExposure and comes back through LibRaw.
    @Test(arguments: [0.0, 1.5, -0.5])
    func baselineExposureRoundTrips(_ ev: Double) throws {
        var raw = DNGFixtures.raw()
        raw.baselineExposure = ev
        let data = try DNGFixtures.dng(raw)
        #expect(abs(try RawFileReader.read(data).raw.baselineExposure - ev) < 1e-3)
        if ExternalTool.exiftool.isInstalled {
            let result = try ExternalTool.exiftool.run(["-s3", "-n", "-BaselineExposure"], file: data, fileExtension: "dng")
            #expect(Double(String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
                .map { abs($0 - ev) < 1e-3 } == true)
        }
    }

    @Test(.enabled(if: ExternalTool.rawIdentify.isInstalled, "raw-identify (libraw-bin) not installed"))
    func rawIdentifyReportsGeometryLevelsAndCFA() throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("frame.dng")
        var raw = DNGFixtures.raw()
        raw.cfa = .grbg
        try DNGFixtures.dng(raw).write(to: file)
        let result = try ExternalTool.rawIdentify.run(["-v", file.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let output = result.output
        for expected in ["DNG Version: 1.4.0.0", "Image size:   256 x 192", "Filter pattern: GRBGGRBG",
                         "cblack[6 .. 9]: 528 528 528 528", "ISO speed: 200", "Shutter: 1/120.0", "DNG Illuminant 1: D65"] {
            #expect(output.contains(expected), "missing \"\(expected)\" in:\n\(output)")
        }
    }

    @Test(.enabled(if: ExternalTool.dcrawEmu.isInstalled, "dcraw_emu (libraw-bin) not installed"))
    func dcrawEmuDevelopsPatchesWithTheRightHue() throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("frame.dng")
        try DNGFixtures.dng().write(to: file)
        let developer = try ExternalTool.dcrawEmu.run(["-w", "-T", file.path])
        #expect(developer.status == 0, "\(developer.output)\(developer.errorOutput)")
        let developed = try TIFFCodec.decode(Data(contentsOf: URL(fileURLWithPath: file.path + ".tiff")))
        #expect(developed.width == 256 && developed.height == 192)
        func mean(_ i: Int) -> SIMD3<Double> {
            let r = DNGFixtures.patchRect(i, width: 256, height: 192)
            var sum = SIMD3<Double>(0, 0, 0)
            for y in r.y.dropFirst(4).dropLast(4) {
                for x in r.x.dropFirst(4).dropLast(4) {
                    sum += SIMD3(Double(developed[x, y, 0]), Double(developed[x, y, 1]), Double(developed[x, y, 2]))
                }
            }
            return sum / Double((r.x.count - 8) * (r.y.count - 8))
        }
        let red = mean(0), green = mean(1), blue = mean(2), yellow = mean(3)
        #expect(red.x > 1.5 * red.y && red.x > 1.5 * red.z, "red patch \(red)")
        #expect(green.y > 1.5 * green.x && green.y > 1.5 * green.z, "green patch \(green)")
        #expect(blue.z > 1.5 * blue.x && blue.z > 1.5 * blue.y, "blue patch \(blue)")
        #expect(yellow.x > 1.5 * yellow.z && yellow.y > 1.5 * yellow.z, "yellow patch \(yellow)")
        // The grey ramp stays neutral: white balance and matrix agree.
        let grey = SIMD3(Double(developed[200, 10, 0]), Double(developed[200, 10, 1]), Double(developed[200, 10, 2]))
        #expect(grey.max() - grey.min() < 0.08 * grey.max() + 2, "ramp \(grey)")
    }

    @Test func generatedPreviewIsASmallRendering() throws {
        let preview = try TIFFCodec.decode(DNGFixtures.dng())   // IFD0 is the preview
        #expect(preview.width == 128 && preview.height == 96)
        let x = (DNGFixtures.patchRect(0, width: 256, height: 192).x.lowerBound + 8) / 2
        #expect(preview[x, 48, 0] > 2 * preview[x, 48, 1] && preview[x, 48, 0] > 2 * preview[x, 48, 2])
    }

    @Test func givenPreviewIsDownscaledToTheLimit() throws {
        let photo = TestImages.colourful(width: 2100, height: 1400)
        let preview = try TIFFCodec.decode(DNGFixtures.dng(DNGFixtures.raw(width: 64, height: 48), preview: photo))
        #expect(preview.width == 700 && preview.height == 466)
        let small = TestImages.colourful(width: 64, height: 48)
        #expect(try TIFFCodec.decode(DNGFixtures.dng(DNGFixtures.raw(width: 64, height: 48), preview: small)) == small)
    }

    @Test func derivedProfileMapsWhiteToNeutralAndD50() throws {
        let raw = DNGFixtures.raw(width: 16, height: 16)
        let m = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Sim", exif: ExifMetadata())
        let d65 = ColorSpace.sRGB.toXYZ * SIMD3<Double>(1, 1, 1)
        let camera = m.colorMatrix1 * d65
        #expect(abs(camera.max() - 1) < 1e-9)
        let n = camera / camera.y
        #expect(abs(n.x - raw.asShotNeutral.x) < 1e-9 && abs(n.z - raw.asShotNeutral.z) < 1e-9)
        let d50 = try #require(m.forwardMatrix1) * SIMD3<Double>(1, 1, 1)
        #expect(abs(d50.x - 0.9642) < 1e-3 && abs(d50.y - 1) < 1e-3 && abs(d50.z - 0.8249) < 1e-3)
        #expect(m.calibrationIlluminant1 == 21 && m.colorMatrix2 == nil)
        #expect(m.exif.iso == 200 && m.exif.exposureTime == 1.0 / 120)
    }

    @Test func badInputThrows() throws {
        let good = DNGFixtures.raw(width: 32, height: 32)  // LibRaw ignores raws under 22 pixels
        let metadata = DNGMetadata.derived(from: good, make: "OpenCapture", model: "Sim", exif: ExifMetadata())
        var raw = good
        raw.blackLevel = [1, 2]
        #expect(throws: MediaFormatError.self) { try DNGWriter.write(raw, metadata: metadata, preview: nil) }
        raw = good
        raw.whiteLevel = 70_000
        #expect(throws: MediaFormatError.self) { try DNGWriter.write(raw, metadata: metadata, preview: nil) }
        raw = good
        raw.bayer = Raster(width: 1, height: 1)
        #expect(throws: MediaFormatError.self) { try DNGWriter.write(raw, metadata: metadata, preview: nil) }
        #expect(throws: MediaFormatError.self) {
            try DNGWriter.write(good, metadata: metadata, preview: Raster<UInt8>(width: 8, height: 8, channels: 1))
        }
        var singular = metadata
        singular.colorMatrix1 = Matrix3(rowMajor: [1, 1, 1, 1, 1, 1, 0, 0, 1])
        #expect(throws: MediaFormatError.self) { try DNGWriter.write(good, metadata: singular, preview: nil) }
        var twoMatrices = metadata
        twoMatrices.colorMatrix2 = metadata.colorMatrix1
        #expect(throws: MediaFormatError.self) { try DNGWriter.write(good, metadata: twoMatrices, preview: nil) }
        twoMatrices.calibrationIlluminant1 = 17
        #expect(try RawFileReader.read(DNGWriter.write(good, metadata: twoMatrices, preview: nil)).raw.bayer == good.bayer)
    }
}

@Suite struct LosslessJPEGDNGToolTests {
    @Test(.enabled(if: ExternalTool.dcrawEmu.isInstalled && ExternalTool.exiftool.isInstalled, "libraw-bin or exiftool missing"))
    func toolsAcceptLosslessJPEGDNG() throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("frame.dng")
        let raw = DNGFixtures.raw()
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Simulated iPhone", exif: DNGFixtures.exif())
        try DNGWriter.write(raw, metadata: metadata, preview: nil, compression: .losslessJPEG).write(to: file)
        let validate = try ExternalTool.exiftool.run(["-validate", "-warning", "-a", "-s", file.path])
        #expect(validate.output.contains("Validate                        : OK"), "\(validate.output)\(validate.errorOutput)")
        let compression = try ExternalTool.exiftool.run(["-SubIFD:Compression", "-n", "-s3", file.path])
        #expect(compression.output.trimmingCharacters(in: .whitespacesAndNewlines) == "7")
        let developer = try ExternalTool.dcrawEmu.run(["-w", "-T", file.path])
        #expect(developer.status == 0, "\(developer.output)\(developer.errorOutput)")
        let developed = try TIFFCodec.decode(Data(contentsOf: URL(fileURLWithPath: file.path + ".tiff")))
        #expect(developed.width == 256 && developed.height == 192)
        let r = DNGFixtures.patchRect(0, width: 256, height: 192)
        let p = (x: r.x.lowerBound + 10, y: r.y.lowerBound + 10)
        #expect(developed[p.x, p.y, 0] > 2 * developed[p.x, p.y, 1])
    }
}
