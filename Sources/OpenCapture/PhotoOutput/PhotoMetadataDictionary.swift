import CaptureEngine
import Foundation
import MediaFormats

/// Apple's ImageIO-shaped metadata for a photo (`AVCapturePhoto.metadata`), built from the EXIF the
/// engine recorded, and the reverse: the EXIF overrides in a request's `settings.metadata`.
enum PhotoMetadataDictionary {
    /// The string fields of `{TIFF}` and `{Exif}` and the orientation that the EXIF writer knows.
    static func overrides(from metadata: [String: Any]) -> MetadataOverrides {
        var o = MetadataOverrides()
        if let tiff = metadata[kCGImagePropertyTIFFDictionary] as? [String: Any] {
            o.make = tiff[kCGImagePropertyTIFFMake] as? String
            o.model = tiff[kCGImagePropertyTIFFModel] as? String
            o.software = tiff[kCGImagePropertyTIFFSoftware] as? String
            o.artist = tiff[kCGImagePropertyTIFFArtist] as? String
            o.copyright = tiff[kCGImagePropertyTIFFCopyright] as? String
            o.imageDescription = tiff[kCGImagePropertyTIFFImageDescription] as? String
        }
        if let e = metadata[kCGImagePropertyExifDictionary] as? [String: Any] {
            o.userComment = e[kCGImagePropertyExifUserComment] as? String
            o.lensModel = e[kCGImagePropertyExifLensModel] as? String
            o.lensMake = e[kCGImagePropertyExifLensMake] as? String
        }
        if let value = metadata[kCGImagePropertyOrientation].flatMap(SettingsValue.double), (1...8).contains(Int(value)) {
            o.orientation = Int(value)
        }
        return o
    }

    /// ImageIO's shape: `Orientation`, `{TIFF}`, `{Exif}`, `{MakerApple}`, with the request's overrides on top.
    static func make(_ exif: ExifMetadata, overrides: [String: Any]) -> [String: Any] {
        let exifDate = exif.dateTimeOriginal.map { ExifDate(date: $0, offsetSeconds: exif.timeZoneOffsetSeconds) }
        let date = exifDate?.dateTime
        let offsetString = exifDate?.offset
        var tiff: [String: Any] = ["XResolution": 72, "YResolution": 72, "ResolutionUnit": 2,
                                   kCGImagePropertyTIFFOrientation: exif.orientation]
        tiff[kCGImagePropertyTIFFMake] = exif.make
        tiff[kCGImagePropertyTIFFModel] = exif.model
        tiff[kCGImagePropertyTIFFSoftware] = exif.software
        tiff[kCGImagePropertyTIFFDateTime] = date
        tiff[kCGImagePropertyTIFFArtist] = exif.artist
        tiff[kCGImagePropertyTIFFCopyright] = exif.copyright
        tiff[kCGImagePropertyTIFFImageDescription] = exif.imageDescription
        var e: [String: Any] = [kCGImagePropertyExifColorSpace: Int(exif.colorSpace) as Int, "SensingMethod": 2, "SceneType": 1,
                                "ExifVersion": [2, 3, 2], "FlashPixVersion": [1, 0], "ComponentsConfiguration": [1, 2, 3, 0]]
        e[kCGImagePropertyExifExposureTime] = exif.exposureTime
        e[kCGImagePropertyExifFNumber] = exif.fNumber
        e[kCGImagePropertyExifISOSpeedRatings] = exif.iso.map { [$0] }
        e[kCGImagePropertyExifFocalLength] = exif.focalLength
        e[kCGImagePropertyExifFocalLenIn35mmFilm] = exif.focalLengthIn35mmFilm
        e[kCGImagePropertyExifExposureBiasValue] = exif.exposureBiasValue
        e[kCGImagePropertyExifFlash] = exif.flash.map { Int($0) }
        e[kCGImagePropertyExifDateTimeOriginal] = date
        e[kCGImagePropertyExifDateTimeDigitized] = date
        e[kCGImagePropertyExifOffsetTimeOriginal] = offsetString
        e[kCGImagePropertyExifPixelXDimension] = exif.pixelXDimension
        e[kCGImagePropertyExifPixelYDimension] = exif.pixelYDimension
        e[kCGImagePropertyExifLensMake] = exif.lensMake
        e[kCGImagePropertyExifLensModel] = exif.lensModel
        e[kCGImagePropertyExifBrightnessValue] = exif.brightnessValue
        e[kCGImagePropertyExifExposureProgram] = exif.exposureProgram.map { Int($0) }
        e[kCGImagePropertyExifMeteringMode] = exif.meteringMode.map { Int($0) }
        e[kCGImagePropertyExifWhiteBalance] = exif.whiteBalance.map { Int($0) }
        e["ExposureMode"] = exif.exposureMode.map { Int($0) }
        e[kCGImagePropertyExifUserComment] = exif.userComment
        var result: [String: Any] = [kCGImagePropertyOrientation: exif.orientation, kCGImagePropertyTIFFDictionary: tiff,
                                     kCGImagePropertyExifDictionary: e, kCGImagePropertyMakerAppleDictionary: [String: Any]()]
        for (key, value) in overrides {
            if let sub = value as? [String: Any], let existing = result[key] as? [String: Any] {
                result[key] = existing.merging(sub) { $1 }
            } else {
                result[key] = value
            }
        }
        return result
    }
}
