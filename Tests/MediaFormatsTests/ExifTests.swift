import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct ExifTests {
    /// 2026-06-01 14:03:07.250 UTC, taken in UTC+02:00.
    static let captureDate = Date(timeIntervalSince1970: 1_780_322_587.25)

    static func sample() -> ExifMetadata {
        var e = ExifMetadata()
        e.make = "OpenCapture"
        e.model = "Simulated iPhone"
        e.software = "OpenCapture 0.1"
        e.lensMake = "OpenCapture"
        e.lensModel = "Simulated back camera 3.99mm f/1.8"
        e.lensSpecification = [3.99, 3.99, 1.8, 1.8]
        e.dateTimeOriginal = captureDate
        e.timeZoneOffsetSeconds = 7200
        e.exposureTime = 1.0 / 60
        e.fNumber = 1.8
        e.iso = 250
        e.focalLength = 3.99
        e.focalLengthIn35mmFilm = 28
        e.exposureBiasValue = -1.0 / 3
        e.flash = 0x19
        e.orientation = 6
        e.colorSpace = 0xFFFF
        e.pixelXDimension = 64
        e.pixelYDimension = 48
        e.brightnessValue = 5.25
        e.exposureProgram = 2
        e.meteringMode = 5
        e.whiteBalance = 0
        e.sceneCaptureType = 0
        e.exposureMode = 0
        e.imageDescription = "A test scene"
        e.artist = "Tester"
        e.copyright = "CC0"
        e.userComment = "hello"
        e.gps = GPSInfo(latitude: 48.858_37, longitude: -2.294_48, altitude: -12.5,
                        timestamp: Date(timeIntervalSince1970: 1_780_322_580))
        e.gps?.speed = 4.5
        e.gps?.speedReference = "N"
        e.gps?.imageDirection = 271.25
        e.gps?.horizontalError = 6.5
        return e
    }

    static func thumbnail() throws -> Data {
        try JPEGEncoder.encode(TestImages.colourful(width: 32, height: 24), quality: 80)
    }

    @Test func tiffLayout() {
        let tiff = [UInt8](ExifWriter.tiffData(for: Self.sample()))
        #expect(Array(tiff.prefix(8)) == [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0])
        let app1 = ExifWriter.app1Payload(for: Self.sample())
        #expect(app1.starts(with: Array("Exif".utf8) + [0, 0]))
        #expect(app1.count == tiff.count + 6)
    }

    @Test func rationalsLookLikeACamera() {
        #expect(TIFFRational.unsigned(1.0 / 60) == (1, 60))
        #expect(TIFFRational.unsigned(1.0 / 4000) == (1, 4000))
        #expect(TIFFRational.unsigned(1.8) == (9, 5))
        #expect(TIFFRational.unsigned(3.99) == (399, 100))
        #expect(TIFFRational.unsigned(2.5) == (5, 2))
        #expect(TIFFRational.signed(-1.0 / 3) == (-1, 3))
        #expect(TIFFRational.signed(0) == (0, 1))
    }

    @Test func dateStrings() {
        let d = ExifDate(date: Self.captureDate, offsetSeconds: 7200)
        #expect(d.dateTime == "2026:06:01 16:03:07")
        #expect(d.subSec == "250")
        #expect(d.offset == "+02:00")
        #expect(ExifDate(date: Date(timeIntervalSince1970: -1), offsetSeconds: -34200).dateTime == "1969:12:31 14:29:59")
        #expect(ExifDate(date: Date(timeIntervalSince1970: 0), offsetSeconds: -34200).offset == "-09:30")
    }

    @Test func roundTripThroughReader() throws {
        let image = TestImages.colourful(width: 64, height: 48)
        let original = Self.sample()
        let jpeg = try JPEGEncoder.encode(image, exif: original, thumbnailJPEG: try Self.thumbnail())
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF, 0xE1]))        // APP1 right after SOI
        var read = try ExifReader.read(jpeg: jpeg)
        // GPS goes through degrees/minutes/seconds; compare it with a tolerance.
        let gps = try #require(read.gps)
        #expect(abs(gps.latitude - 48.858_37) < 1e-6 && abs(gps.longitude + 2.294_48) < 1e-6)
        #expect(gps.altitude == -12.5)
        #expect(gps.timestamp == original.gps?.timestamp)
        #expect(gps.speed == 4.5 && gps.speedReference == "N" && gps.imageDirection == 271.25 && gps.imageDirectionReference == "T")
        #expect(gps.horizontalError == 6.5)
        read.gps = original.gps
        #expect(read == original)
        let thumbnail = try #require(try ExifReader.thumbnail(jpeg: jpeg))
        #expect(try JPEGDecoder.size(of: thumbnail) == Size(width: 32, height: 24))
        #expect(try ExifReader.read(jpeg: ExifWriter.tiffData(for: original)) == read)
    }

    @Test func pixelDimensionsDefaultToImageSize() throws {
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 33, height: 17), exif: exif)
        let read = try ExifReader.read(jpeg: jpeg)
        #expect(read.pixelXDimension == 33 && read.pixelYDimension == 17)
        #expect(read.make == "OpenCapture" && read.dateTimeOriginal == nil && read.gps == nil)
    }

    @Test func oversizedThumbnailIsDropped() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<(256 * 256 * 3)).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        let noisy = Raster<UInt8>(width: 256, height: 256, channels: 3, storage: noise)
        let big = try JPEGEncoder.encode(noisy, quality: 100, subsampling: .yuv444)
        #expect(big.count > 65_535)
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 16, height: 16), exif: Self.sample(), thumbnailJPEG: big)
        #expect(try ExifReader.thumbnail(jpeg: jpeg) == nil)
        #expect(try ExifReader.read(jpeg: jpeg).model == "Simulated iPhone")
    }

    @Test func readerRejectsJunk() {
        #expect(throws: MediaFormatError.self) { _ = try ExifReader.read(jpeg: Data([1, 2, 3])) }
        #expect(throws: MediaFormatError.self) { _ = try ExifReader.read(jpeg: Data([0x49, 0x49, 0x2A, 0, 0xFF, 0xFF, 0, 0])) }
        #expect(throws: MediaFormatError.self) { _ = try ExifReader.read(jpeg: try JPEGEncoder.encode(TestImages.colourful(width: 8, height: 8))) }
    }

    /// A time without an offset is local time in the reader's zone (as Photos and exiftool take it), across
    /// daylight-saving time; a recorded offset wins.
    @Test func datesWithoutAnOffsetAreLocalTime() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let winter = try #require(ExifDate.parse("2026:01:15 12:00:00", subSec: nil, offset: nil, zone: berlin))
        #expect(winter.date == Date(timeIntervalSince1970: 1_768_478_400 - 3600) && winter.offsetSeconds == 3600)
        #expect(!winter.offsetRecorded)
        let summer = try #require(ExifDate.parse("2026:07:15 12:00:00", subSec: "5", offset: nil, zone: berlin))
        #expect(summer.date == Date(timeIntervalSince1970: 1_784_116_800 - 7200 + 0.5) && summer.offsetSeconds == 7200)
        let given = try #require(ExifDate.parse("2026:07:15 12:00:00", subSec: nil, offset: "-05:00", zone: berlin))
        #expect(given.date == Date(timeIntervalSince1970: 1_784_116_800 + 18_000) && given.offsetRecorded)
    }

    /// A file whose offsets were removed (as many cameras write it) reads as local time here, and says so.
    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func readerTakesAFileWithoutOffsetsAsLocalTime() throws {
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 16, height: 16), exif: Self.sample())
        let stripped = try ExternalTool.exiftool.run(["-OffsetTime*=", "-o", "-"], file: jpeg, fileExtension: "jpg")
        let exif = try ExifReader.read(jpeg: stripped.standardOutput)
        let local = try #require(ExifDate.parse("2026:06:01 16:03:07", subSec: "250", offset: nil))
        #expect(!exif.timeZoneOffsetRecorded)
        #expect(exif.dateTimeOriginal == local.date && exif.timeZoneOffsetSeconds == local.offsetSeconds)
        #expect(try ExifReader.read(jpeg: jpeg).timeZoneOffsetRecorded)
        // Written again (a developed or fused copy), it still says no offset, and the local time is kept.
        let copy = try JPEGEncoder.encode(TestImages.colourful(width: 16, height: 16), exif: exif)
        let tags = try ExifTool.tags(of: copy)
        #expect(tags["ExifIFD:OffsetTimeOriginal"] == nil && tags["ExifIFD:DateTimeOriginal"] == "2026:06:01 16:03:07")
        #expect(try !ExifReader.read(jpeg: copy).timeZoneOffsetRecorded)
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolReadsAndValidates() throws {
        let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 64, height: 48), exif: Self.sample(),
                                          thumbnailJPEG: try Self.thumbnail(), iccProfile: ICCProfile.data(for: .displayP3))
        let t = try ExifTool.tags(of: jpeg)
        #expect(t["IFD0:Make"] == "OpenCapture")
        #expect(t["IFD0:Model"] == "Simulated iPhone")
        #expect(t["IFD0:Orientation"] == "Rotate 90 CW")
        #expect(t["IFD0:ModifyDate"] == "2026:06:01 16:03:07")
        #expect(t["ExifIFD:DateTimeOriginal"] == "2026:06:01 16:03:07")
        #expect(t["ExifIFD:CreateDate"] == "2026:06:01 16:03:07")
        #expect(t["ExifIFD:SubSecTimeOriginal"] == "250")
        #expect(t["ExifIFD:OffsetTimeOriginal"] == "+02:00")
        #expect(t["ExifIFD:ExposureTime"] == "1/60")
        #expect(t["ExifIFD:FNumber"] == "1.8")
        #expect(t["ExifIFD:ISO"] == "250")
        // exiftool prints FocalLength with one decimal ("4.0 mm", as for real iPhones, which also
        // store 399/100); the stored value is checked numerically below.
        #expect(t["ExifIFD:FocalLength"] == "4.0 mm")
        #expect(t["ExifIFD:FocalLengthIn35mmFormat"] == "28 mm")
        #expect(t["ExifIFD:ExposureCompensation"] == "-1/3")
        #expect(t["ExifIFD:Flash"] == "Auto, Fired")
        #expect(t["ExifIFD:ColorSpace"] == "Uncalibrated")
        #expect(t["ExifIFD:ExifImageWidth"] == "64")
        #expect(t["ExifIFD:ExifImageHeight"] == "48")
        #expect(t["ExifIFD:ExifVersion"] == "0232")
        #expect(t["ExifIFD:LensModel"] == "Simulated back camera 3.99mm f/1.8")
        #expect(t["ExifIFD:LensInfo"] == "3.99mm f/1.8", "\(t["ExifIFD:LensInfo"] ?? "no LensInfo")")
        #expect(t["ExifIFD:UserComment"] == "hello")
        #expect(t["GPS:GPSLatitudeRef"] == "North")
        #expect(t["GPS:GPSLongitudeRef"] == "West")
        #expect(t["GPS:GPSDateStamp"] == "2026:06:01")
        #expect(t["IFD1:Compression"] == "JPEG (old-style)")
        #expect(t["IFD1:ThumbnailImage"]?.contains("Binary data") == true)
        #expect(t["ICC_Profile:ProfileDescription"] == "Display P3")
        #expect(t["ExifTool:Warning"] == nil, "\(t["ExifTool:Warning"] ?? "")")
        #expect(t["ExifTool:Validate"] == "OK", "\(t["ExifTool:Validate"] ?? "")")

        let n = try ExifTool.tags(of: jpeg, numeric: true)
        #expect(n["ExifIFD:FocalLength"] == "3.99")
        #expect(n["ExifIFD:ExposureTime"].flatMap(Double.init).map { abs($0 - 1.0 / 60) < 1e-9 } == true)
        #expect(n["ExifIFD:FNumber"] == "1.8")
        #expect(n["ExifIFD:Flash"] == "25")
        #expect(n["IFD0:Orientation"] == "6")
        #expect(n["ExifIFD:ColorSpace"] == "65535")
        #expect(n["Composite:SubSecDateTimeOriginal"] == "2026:06:01 16:03:07.250+02:00")
        #expect(n["GPS:GPSAltitudeRef"] == "1")
        if let lat = n["GPS:GPSLatitude"].flatMap(Double.init) { #expect(abs(lat - 48.858_37) < 1e-6) } else { Issue.record("no GPSLatitude") }
        if let lon = n["GPS:GPSLongitude"].flatMap(Double.init) { #expect(abs(lon - 2.294_48) < 1e-6) } else { Issue.record("no GPSLongitude") }

        // The thumbnail exiftool extracts is the JPEG we embedded.
        let thumb = try ExternalTool.exiftool.run(["-b", "-ThumbnailImage"], file: jpeg, fileExtension: "jpg").standardOutput
        #expect(try JPEGDecoder.size(of: thumb) == Size(width: 32, height: 24))
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolValidatesMinimalExif() throws {
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        exif.flash = 0x10
        let t = try ExifTool.tags(of: try JPEGEncoder.encode(TestImages.colourful(width: 17, height: 9), exif: exif))
        #expect(t["ExifIFD:Flash"] == "Off, Did not fire")
        #expect(t["ExifIFD:ColorSpace"] == "sRGB")
        #expect(t["ExifTool:Validate"] == "OK", "\(t["ExifTool:Validate"] ?? "")")
    }
}
