import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapture

/// `AVCapturePhoto.metadata` against the photo's own file and against what an iPhone's carries.
@Suite struct PhotoMetadataDictionaryTests {
    static func exif(_ photo: AVCapturePhoto) throws -> [String: Any] {
        try #require(photo.metadata[kCGImagePropertyExifDictionary] as? [String: Any])
    }

    /// ShutterSpeedValue and ApertureValue are the APEX values of the exposure made (Tv = −log2 t, Av = 2 log2 N), as
    /// NSNumbers holding doubles, and SubjectArea four integers, as ImageIO gives them; the dictionary had none of them.
    @Test func apexValuesAndSubjectAreaComeFromTheExposure() async throws {
        let rig = CaptureRig(preset: .vga640x480)
        try rig.device.lockForConfiguration()
        rig.device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 250), iso: 400)
        rig.device.unlockForConfiguration()
        let exif = try Self.exif(try #require(try await rig.capture().photos.first))
        let time = try #require(exif[kCGImagePropertyExifExposureTime] as? Double)
        let fNumber = try #require(exif[kCGImagePropertyExifFNumber] as? Double)
        #expect(abs(time - 0.004) < 1e-9 && fNumber == 1.8)
        let tv = try #require(exif[kCGImagePropertyExifShutterSpeedValue] as? NSNumber)
        let av = try #require(exif[kCGImagePropertyExifApertureValue] as? NSNumber)
        #expect(abs(tv.doubleValue - 7.9658) < 1e-3, "\(tv)")
        #expect(abs(av.doubleValue - 1.6960) < 1e-3, "\(av)")
        #expect(abs(tv.doubleValue + log2(time)) < 1e-3 && abs(av.doubleValue - 2 * log2(fNumber)) < 1e-3)
        let area = try #require(exif[kCGImagePropertyExifSubjectArea] as? [NSNumber])
        #expect(area.map(\.intValue) == [319, 239, 352, 211])
        #expect(exif[kCGImagePropertyExifSubjectArea] as? [Int] == [319, 239, 352, 211])
        #expect(exif[kCGImagePropertyExifSubjectDistance] is NSNumber)
        #expect(exif[kCGImagePropertyExifVersion] as? [Int] == [2, 3, 2])
        #expect(exif[kCGImagePropertyExifFlashPixVersion] as? [Int] == [1, 0])
    }

    /// SubjectArea, in the file and in the dictionary, is in the stored pixels: a photo taken in portrait (Orientation 6,
    /// pixels stored landscape) has the landscape one's area, as an iPhone's does; a point of interest set elsewhere
    /// gives a small window around it.
    @Test func subjectAreaIsInStoredPixelsWhateverTheOrientation() async throws {
        let rig = CaptureRig(preset: .vga640x480)
        rig.output.connection(with: .video)?.videoRotationAngle = 90
        let turned = try #require(try await rig.capture().photos.first)
        let file = try ExifReader.read(jpeg: try #require(turned.fileDataRepresentation()))
        #expect(file.orientation == 6)
        #expect(file.subjectArea == [319, 239, 352, 211])
        #expect(try Self.exif(turned)[kCGImagePropertyExifSubjectArea] as? [Int] == [319, 239, 352, 211])
        try rig.device.lockForConfiguration()
        rig.device.focusPointOfInterest = CGPoint(x: 0.25, y: 0.75)
        rig.device.focusMode = .autoFocus
        rig.device.unlockForConfiguration()
        let tapped = try #require(try await rig.capture().photos.first)
        let tappedFile = try ExifReader.read(jpeg: try #require(tapped.fileDataRepresentation()))
        #expect(tappedFile.subjectArea == [159, 359, 119, 120])
        #expect(try Self.exif(tapped)[kCGImagePropertyExifSubjectArea] as? [Int] == [159, 359, 119, 120])
    }

    /// Every EXIF tag exiftool finds in the photo's JPEG and HEIC (IFD0, the Exif IFD, the Apple MakerNote) is in the
    /// dictionary under ImageIO's name, with the file's value: the dictionary is built from the fields the file carries.
    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func theDictionaryCarriesWhatTheFileCarries() async throws {
        let rig = CaptureRig(preset: .cif352x288)
        // exiftool's names where ImageIO's differ; tags ImageIO has no key for.
        let renamed = ["ModifyDate": "DateTime", "ISO": "ISOSpeedRatings", "CreateDate": "DateTimeDigitized",
                       "ExposureCompensation": "ExposureBiasValue", "SubSecTime": "SubsecTime",
                       "SubSecTimeOriginal": "SubsecTimeOriginal", "SubSecTimeDigitized": "SubsecTimeDigitized",
                       "FlashpixVersion": "FlashPixVersion", "ExifImageWidth": "PixelXDimension",
                       "ExifImageHeight": "PixelYDimension", "FocalLengthIn35mmFormat": "FocalLenIn35mmFilm",
                       "LensInfo": "LensSpecification", "MakerNoteVersion": "1", "ContentIdentifier": "17", "MediaGroupUUID": "17"]
        let withoutImageIOKey: Set<String> = ["YCbCrPositioning"]
        for codec in [AVVideoCodecType.jpeg, .hevc] {
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: codec])
            settings.metadata = [kCGImagePropertyExifDictionary: [kCGImagePropertyExifUserComment: "hello"]]
            let photo = try #require(try await rig.capture(settings).photos.first)
            let data = try #require(photo.fileDataRepresentation())
            let run = try ExternalTool.exiftool.run(["-j", "-n", "-a", "-G1", "-EXIF:all", "-MakerNotes:all"], file: data,
                                                    fileExtension: codec == .jpeg ? "jpg" : "heic")
            let json = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [[String: Any]]).first ?? [:]
            var seen = 0
            for (groupAndName, fileValue) in json {
                let parts = groupAndName.split(separator: ":").map(String.init)
                guard parts.count == 2, ["IFD0", "ExifIFD", "Apple"].contains(parts[0]), !withoutImageIOKey.contains(parts[1]) else {
                    continue
                }
                let dictionary = parts[0] == "IFD0" ? kCGImagePropertyTIFFDictionary
                    : parts[0] == "Apple" ? kCGImagePropertyMakerAppleDictionary : kCGImagePropertyExifDictionary
                let key = renamed[parts[1]] ?? parts[1]
                let entry = (photo.metadata[dictionary] as? [String: Any])?[key]
                #expect(entry != nil, "\(codec.rawValue): \(groupAndName) is in the file, not in metadata[\(dictionary)][\(key)]")
                guard let entry else { continue }
                seen += 1
                // exiftool -n gives Tv and Av as the time and f-number they stand for.
                let numbers: [Double]? = switch entry {
                case let list as [NSNumber]: list.map(\.doubleValue)
                case let number as NSNumber: [number.doubleValue]
                default: nil
                }
                guard var numbers, !["ExifVersion", "FlashPixVersion", "SubsecTime", "SubsecTimeOriginal",
                                      "SubsecTimeDigitized"].contains(key) else { continue }
                if key == "ShutterSpeedValue" { numbers = numbers.map { pow(2, -$0) } }
                if key == "ApertureValue" { numbers = numbers.map { pow(2, $0 / 2) } }
                let expected = ((fileValue as? NSNumber).map { [$0.doubleValue] }
                    ?? (fileValue as? String)?.split(separator: " ").compactMap { Double($0) }) ?? []
                #expect(expected.count == numbers.count && zip(expected, numbers).allSatisfy { abs($0 - $1) <= 1e-4 * max(1, abs($0)) },
                        "\(codec.rawValue): \(groupAndName) \(fileValue) in the file, \(entry) in metadata")
            }
            #expect(seen > 30, "\(codec.rawValue): \(seen) tags compared")
        }
    }
}
