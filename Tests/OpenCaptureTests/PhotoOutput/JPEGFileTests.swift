import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapture

/// The delivered JPEG as real readers see it.
@Suite struct JPEGFileTests {
    @Test func jpegCarriesTheCaptureInItsExif() async throws {
        let rig = CaptureRig(preset: .vga640x480)
        let settings = AVCapturePhotoSettings()
        settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        let result = try await rig.capture(settings)
        let data = try #require(result.photos.first?.fileDataRepresentation())
        let size = try JPEGDecoder.size(of: data)
        #expect(size.width == 640 && size.height == 480)
        let exif = try ExifReader.read(jpeg: data)
        #expect(exif.make == "OpenCapture")
        #expect(exif.fNumber == 1.8)
        #expect(exif.orientation == 1)   // the simulated phone is held in landscape
        #expect(exif.pixelXDimension == 640)
        #expect(exif.focalLengthIn35mmFilm == 28)
        #expect((exif.iso ?? 0) >= 25)
        #expect(result.resolvedSettings.embeddedThumbnailDimensions.width == 320)
        #expect(try ExifReader.thumbnail(jpeg: data) != nil)
    }

    /// A 16:9 photo is a crop of the 4:3 sensor: its 35 mm equivalent is longer by the ratio of the diagonals.
    @Test func aWidePhotosEquivalentFocalLengthIsItsCrops() async throws {
        let rig = CaptureRig(preset: .hd1280x720)
        let data = try #require(try await rig.capture(AVCapturePhotoSettings()).photos.first?.fileDataRepresentation())
        let exif = try ExifReader.read(jpeg: data)
        #expect(exif.pixelXDimension == 1280 && exif.pixelYDimension == 720)
        #expect(exif.focalLengthIn35mmFilm == 31, "28 mm × 5040 / 4626")
    }

    @Test func settingsMetadataIsMergedIntoTheFile() async throws {
        let rig = CaptureRig(preset: .low)
        for codec in [AVVideoCodecType.jpeg, .hevc] {
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: codec])
            settings.metadata = [kCGImagePropertyTIFFDictionary: [kCGImagePropertyTIFFArtist: "Ansel", kCGImagePropertyTIFFCopyright: "CC0"],
                                 kCGImagePropertyExifDictionary: [kCGImagePropertyExifUserComment: "hello"]]
            let photo = try #require(try await rig.capture(settings).photos.first)
            let data = try #require(photo.fileDataRepresentation())
            if codec == .jpeg {
                let exif = try ExifReader.read(jpeg: data)
                #expect(exif.artist == "Ansel" && exif.copyright == "CC0" && exif.userComment == "hello")
            } else {
                #expect(try HEIFDecoder.info(data).hasExif)
            }
            let tiff = try #require(photo.metadata[kCGImagePropertyTIFFDictionary] as? [String: Any])
            #expect(tiff[kCGImagePropertyTIFFArtist] as? String == "Ansel")
            #expect(tiff[kCGImagePropertyTIFFMake] as? String == "OpenCapture", "overrides merge, they do not replace")
        }
    }

    /// Geotagging as apps do it: a `{GPS}` dictionary of ImageIO's keys in `settings.metadata` is written into the RAW's
    /// DNG and the JPEG (and a HEIC's EXIF), and `photo.metadata` carries it.
    @Test func theLocationInTheSettingsIsWrittenIntoEveryFile() async throws {
        let rig = CaptureRig()
        let location: [String: Any] = [kCGImagePropertyGPSLatitude: 37.3349, kCGImagePropertyGPSLatitudeRef: "N",
                                       kCGImagePropertyGPSLongitude: 122.009, kCGImagePropertyGPSLongitudeRef: "W",
                                       kCGImagePropertyGPSAltitude: 20.5, kCGImagePropertyGPSAltitudeRef: 0,
                                       kCGImagePropertyGPSDateStamp: "2026:03:01", kCGImagePropertyGPSTimeStamp: "08:30:15.50",
                                       kCGImagePropertyGPSImgDirection: 271.5, kCGImagePropertyGPSHPositioningError: 5]
        let raw = rig.output.availableRawPhotoPixelFormatTypes[0]
        for codec in [AVVideoCodecType.jpeg, .hevc] {
            let settings = AVCapturePhotoSettings(rawPixelFormatType: raw, processedFormat: [AVVideoCodecKey: codec])
            settings.metadata = [kCGImagePropertyGPSDictionary: location]
            let result = try await rig.capture(settings)
            #expect(result.photos.count == 2)
            for photo in result.photos {
                let data = try #require(photo.fileDataRepresentation())
                let exifBytes = codec == .hevc && !photo.isRawPhoto ? try #require(try HEIFStructure.parse(data).exif) : data
                let gps = try #require(try ExifReader.read(jpeg: exifBytes).gps, "\(codec) raw: \(photo.isRawPhoto)")
                #expect(abs(gps.latitude - 37.3349) < 1e-6 && abs(gps.longitude + 122.009) < 1e-6 && gps.altitude == 20.5)
                #expect(gps.timestamp == Date(timeIntervalSince1970: 1_772_353_815.5))
                #expect(gps.imageDirection == 271.5 && gps.imageDirectionReference == "T" && gps.horizontalError == 5)
                let metadata = try #require(photo.metadata[kCGImagePropertyGPSDictionary] as? [String: Any])
                #expect(metadata[kCGImagePropertyGPSLatitude] as? Double == 37.3349)
            }
        }
        // Without a location there is no GPS IFD.
        let plain = try #require(try await rig.capture(AVCapturePhotoSettings()).photos.first?.fileDataRepresentation())
        #expect(try ExifReader.read(jpeg: plain).gps == nil)
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "needs exiftool (libimage-exiftool-perl)"))
    func exiftoolReadsTheFieldsWithoutWarnings() async throws {
        let rig = CaptureRig(preset: .vga640x480, lighting: .dark)
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .auto
        let data = try #require(try await rig.capture(settings).photos.first?.fileDataRepresentation())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-\(UUID().uuidString).jpg")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let output = try ExternalTool.exiftool.run(["-j", "-a", "-validate", "-warning", "-Make", "-Model", "-DateTimeOriginal",
                                                    "-ExposureTime", "-FNumber", "-ISO", "-FocalLength", "-ExposureCompensation",
                                                    "-Flash", "-Orientation", "-ColorSpace", "-ProfileDescription", url.path]).standardOutput
        let json = try #require((try JSONSerialization.jsonObject(with: output) as? [[String: Any]])?.first)
        #expect(json["Make"] as? String == "OpenCapture")
        #expect(json["Model"] != nil && json["DateTimeOriginal"] != nil && json["ExposureTime"] != nil)
        #expect(json["FNumber"] as? Double == 1.8)
        #expect(json["ISO"] != nil && json["FocalLength"] != nil && json["ExposureCompensation"] != nil)
        #expect((json["Flash"] as? String)?.contains("Fired") == true)
        #expect(json["Orientation"] as? String == "Horizontal (normal)")
        // A photo output makes the session pick Display P3, as on iPhones: EXIF says uncalibrated, the ICC says P3.
        #expect(json["ColorSpace"] as? String == "Uncalibrated")
        #expect(json["ProfileDescription"] as? String == "Display P3")
        #expect(json["Warning"] == nil)
        #expect(json["Validate"] as? String == "OK")
    }
}
