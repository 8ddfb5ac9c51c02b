import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats

/// The facts about one delivered photo, rendered both as EXIF for the file and as Apple's
/// ImageIO-style `AVCapturePhoto.metadata` dictionary, with the request's `metadata` merged over them.
struct PhotoDescription {
    var exif: ExifMetadata
    var imageIOMetadata: [String: Any]

    init(request: PhotoRequest, raw: RawImage, plan: CapturePlan, size: Size, captureDate: Date) {
        let device = request.context.device, module = device.module, record = raw.exposure
        let settings = request.settings
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        exif.model = "OpenCapture Simulated Camera"
        exif.software = "OpenCapture \(OpenCaptureVersion.string)"
        exif.lensMake = "OpenCapture"
        exif.lensModel = "\(device.localizedName) \(PhotoDescription.trim(module.focalLength))mm f/\(PhotoDescription.trim(module.fNumber))"
        exif.dateTimeOriginal = captureDate
        exif.timeZoneOffsetSeconds = TimeZone.current.secondsFromGMT(for: captureDate)
        // Merged frames add up their exposure; EXIF reports the per-frame exposure as phones do.
        exif.exposureTime = record.duration
        exif.fNumber = module.fNumber
        exif.iso = Int(record.iso.rounded())
        exif.focalLength = module.focalLength
        exif.focalLengthIn35mmFilm = Int(module.focalLength35mmEquivalent.rounded())
        exif.exposureBiasValue = record.bias
        exif.flash = PhotoDescription.flashCode(mode: settings.flashMode, fired: plan.flash, hasFlash: device.hasFlash,
                                                redEye: plan.flash && settings.isAutoRedEyeReductionEnabled)
        exif.orientation = request.context.orientation
        exif.colorSpace = request.context.colorSpace == .sRGB ? 1 : 0xFFFF  // uncalibrated = Display P3, as iPhones write
        exif.pixelXDimension = size.width
        exif.pixelYDimension = size.height
        // APEX brightness: Bv = log2(L / (0.3 · 0.32)) with L in cd/m² ≈ log2(L) + 3.4 (rounded K = 12.5).
        exif.brightnessValue = log2(max(plan.metering.sceneLuminance, 1e-6) / 0.3 / 0.32 / 3.125) + 0
        exif.exposureProgram = device.exposureMode == .custom ? 1 : 2
        exif.exposureMode = device.exposureMode == .custom ? 1 : 0
        exif.meteringMode = 5
        exif.whiteBalance = 0
        exif.sceneCaptureType = 0
        exif.sensingMethod = 2
        PhotoDescription.merge(settings.metadata, into: &exif)
        self.exif = exif
        imageIOMetadata = PhotoDescription.dictionary(for: exif, overrides: settings.metadata)
    }

    /// EXIF Flash bits: fired (0x01), mode (0x08 on, 0x10 off, 0x18 auto), no flash (0x20), red-eye (0x40).
    static func flashCode(mode: AVCaptureDevice.FlashMode, fired: Bool, hasFlash: Bool, redEye: Bool) -> UInt16 {
        guard hasFlash else { return 0x20 }
        var code: UInt16
        switch mode {
        case .off: code = 0x10
        case .on: code = 0x08
        case .auto: code = 0x18
        }
        if fired { code |= 0x01 }
        if fired && redEye { code |= 0x40 }
        return code
    }

    private static func trim(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value).replacingOccurrences(of: #"0$"#, with: "", options: .regularExpression)
    }

    /// Applies the string fields of `{TIFF}` and `{Exif}` overrides that the EXIF writer knows.
    private static func merge(_ metadata: [String: Any], into exif: inout ExifMetadata) {
        if let tiff = metadata[kCGImagePropertyTIFFDictionary] as? [String: Any] {
            if let v = tiff[kCGImagePropertyTIFFMake] as? String { exif.make = v }
            if let v = tiff[kCGImagePropertyTIFFModel] as? String { exif.model = v }
            if let v = tiff[kCGImagePropertyTIFFSoftware] as? String { exif.software = v }
            if let v = tiff[kCGImagePropertyTIFFArtist] as? String { exif.artist = v }
            if let v = tiff[kCGImagePropertyTIFFCopyright] as? String { exif.copyright = v }
            if let v = tiff[kCGImagePropertyTIFFImageDescription] as? String { exif.imageDescription = v }
        }
        if let e = metadata[kCGImagePropertyExifDictionary] as? [String: Any] {
            if let v = e[kCGImagePropertyExifUserComment] as? String { exif.userComment = v }
            if let v = e[kCGImagePropertyExifLensModel] as? String { exif.lensModel = v }
            if let v = e[kCGImagePropertyExifLensMake] as? String { exif.lensMake = v }
        }
        if let orientation = metadata[kCGImagePropertyOrientation].flatMap(PhotoCaptureEngine.double),
           (1...8).contains(Int(orientation)) {
            exif.orientation = Int(orientation)
        }
    }

    static func exifDateString(_ date: Date, offset: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offset)
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return formatter.string(from: date)
    }

    /// ImageIO's shape: `Orientation`, `{TIFF}`, `{Exif}`, `{MakerApple}`, with the request's overrides on top.
    static func dictionary(for exif: ExifMetadata, overrides: [String: Any]) -> [String: Any] {
        let date = exif.dateTimeOriginal.map { exifDateString($0, offset: exif.timeZoneOffsetSeconds) }
        let offset = exif.timeZoneOffsetSeconds
        let offsetString = String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
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
        e[kCGImagePropertyExifOffsetTimeOriginal] = date == nil ? nil : offsetString
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
