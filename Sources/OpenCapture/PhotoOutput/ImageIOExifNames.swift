import Foundation
import MediaFormats

/// ImageIO's names and shapes for the EXIF fields a photo's file carries (CGImageProperties.h): how an `ExifField` from
/// `ExifWriter.fields(for:)` becomes an entry of `AVCapturePhoto.metadata`'s `{TIFF}`, `{Exif}` or `{MakerApple}`. Fields
/// ImageIO has no key for (YCbCrPositioning) are left out.
enum ImageIOExifNames {
    /// IFD0 tags ImageIO puts in `{TIFF}`.
    static let tiff: [UInt16: String] = [
        0x010E: kCGImagePropertyTIFFImageDescription, 0x010F: kCGImagePropertyTIFFMake, 0x0110: kCGImagePropertyTIFFModel,
        0x0112: kCGImagePropertyTIFFOrientation, 0x011A: kCGImagePropertyTIFFXResolution,
        0x011B: kCGImagePropertyTIFFYResolution, 0x0128: kCGImagePropertyTIFFResolutionUnit,
        0x0131: kCGImagePropertyTIFFSoftware, 0x0132: kCGImagePropertyTIFFDateTime, 0x013B: kCGImagePropertyTIFFArtist,
        0x013C: kCGImagePropertyTIFFHostComputer, 0x8298: kCGImagePropertyTIFFCopyright,
    ]

    /// Exif IFD tags, by ImageIO's `kCGImagePropertyExif…` names.
    static let exif: [UInt16: String] = [
        0x829A: kCGImagePropertyExifExposureTime, 0x829D: kCGImagePropertyExifFNumber,
        0x8822: kCGImagePropertyExifExposureProgram, 0x8827: kCGImagePropertyExifISOSpeedRatings,
        0x8830: kCGImagePropertyExifSensitivityType, 0x9000: kCGImagePropertyExifVersion,
        0x9003: kCGImagePropertyExifDateTimeOriginal, 0x9004: kCGImagePropertyExifDateTimeDigitized,
        0x9010: kCGImagePropertyExifOffsetTime, 0x9011: kCGImagePropertyExifOffsetTimeOriginal,
        0x9012: kCGImagePropertyExifOffsetTimeDigitized, 0x9101: kCGImagePropertyExifComponentsConfiguration,
        0x9201: kCGImagePropertyExifShutterSpeedValue, 0x9202: kCGImagePropertyExifApertureValue,
        0x9203: kCGImagePropertyExifBrightnessValue, 0x9204: kCGImagePropertyExifExposureBiasValue,
        0x9206: kCGImagePropertyExifSubjectDistance, 0x9207: kCGImagePropertyExifMeteringMode,
        0x9209: kCGImagePropertyExifFlash, 0x920A: kCGImagePropertyExifFocalLength,
        0x9214: kCGImagePropertyExifSubjectArea, 0x9286: kCGImagePropertyExifUserComment,
        0x9290: "SubsecTime", 0x9291: kCGImagePropertyExifSubsecTimeOriginal,
        0x9292: kCGImagePropertyExifSubsecTimeDigitized, 0xA000: kCGImagePropertyExifFlashPixVersion,
        0xA001: kCGImagePropertyExifColorSpace, 0xA002: kCGImagePropertyExifPixelXDimension,
        0xA003: kCGImagePropertyExifPixelYDimension, 0xA217: kCGImagePropertyExifSensingMethod,
        0xA301: kCGImagePropertyExifSceneType, 0xA402: kCGImagePropertyExifExposureMode,
        0xA403: kCGImagePropertyExifWhiteBalance, 0xA405: kCGImagePropertyExifFocalLenIn35mmFilm,
        0xA406: kCGImagePropertyExifSceneCaptureType, 0xA432: kCGImagePropertyExifLensSpecification,
        0xA433: kCGImagePropertyExifLensMake, 0xA434: kCGImagePropertyExifLensModel,
    ]

    /// Keys ImageIO gives as an array even when the field holds one value.
    private static let arrays: Set<String> = [kCGImagePropertyExifISOSpeedRatings, kCGImagePropertyExifSubjectArea,
                                              kCGImagePropertyExifLensSpecification]

    /// The dictionary key and value ImageIO gives `field`, or nil when it gives none. Numbers are `NSNumber`s (integers
    /// for integer types, doubles for rationals); several values, or a key ImageIO always lists, make an array; the
    /// versions ("0232", "0100") read as ImageIO's digit lists ([2, 3, 2], [1, 0]); SceneType's byte as a number.
    static func entry(_ field: ExifField) -> (key: String, value: Any)? {
        let key: String
        switch field.directory {
        case .image: guard let name = tiff[field.tag] else { return nil }; key = name
        case .exif: guard let name = exif[field.tag] else { return nil }; key = name
        case .appleMakerNote: key = String(field.tag)
        case .gps: return nil
        }
        func numbers(_ values: [NSNumber]) -> Any? {
            values.count == 1 && !arrays.contains(key) ? values[0] : values.isEmpty ? nil : values
        }
        switch field.value {
        case .text(let text): return (key, text)
        case .integers(let values): return numbers(values.map { NSNumber(value: $0) }).map { (key, $0) }
        case .reals(let values): return numbers(values.map { NSNumber(value: $0) }).map { (key, $0) }
        case .bytes(let bytes):
            switch key {
            case kCGImagePropertyExifVersion, kCGImagePropertyExifFlashPixVersion:
                return version(bytes).map { (key, $0.map { NSNumber(value: $0) }) }
            case kCGImagePropertyExifComponentsConfiguration: return (key, bytes.map { NSNumber(value: $0) })
            case kCGImagePropertyExifSceneType: return bytes.first.map { (key, NSNumber(value: $0)) }
            default: return nil
            }
        }
    }

    /// A four-digit EXIF version ("0232") as ImageIO lists it: the major number, then the minor digits without trailing
    /// zeros but at least one ([2, 3, 2]; "0100" → [1, 0]).
    static func version(_ bytes: [UInt8]) -> [Int]? {
        let digits = bytes.map { Int($0) - 0x30 }
        guard digits.count == 4, digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        var minor = Array(digits[2...])
        while minor.count > 1, minor.last == 0 { minor.removeLast() }
        return [digits[0] * 10 + digits[1]] + minor
    }
}
