import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats

/// The EXIF a delivered photo records: the camera, the exposure actually made, the scene
/// decisions, the capture date from the request's clock, and the request's overrides on top.
package enum CaptureExif {
    /// The camera as stills' EXIF and movies' QuickTime keys name it (an iPhone writes its name in both).
    package static let cameraMake = "OpenCapture", cameraModel = "OpenCapture Simulated Camera"
    package static var software: String { "OpenCapture \(OpenCaptureVersion.string)" }

    /// The QuickTime `mdta` keys a movie gets, as iPhones write them: make, model and software as the stills' EXIF
    /// says, and the capture date with its zone.
    package static func movieMetadata(date: Date, offsetSeconds: Int) -> [(key: String, value: String)] {
        [("com.apple.quicktime.make", cameraMake), ("com.apple.quicktime.model", cameraModel),
         ("com.apple.quicktime.software", software),
         ("com.apple.quicktime.creationdate", ExifDate(date: date, offsetSeconds: offsetSeconds).quickTime)]
    }

    package static func make(request: CaptureRequest, plan: CapturePlan, record: ExposureRecord) -> ExifMetadata {
        let device = request.device, module = device.module
        var exif = ExifMetadata()
        exif.make = cameraMake
        exif.model = cameraModel
        exif.software = software
        exif.lensMake = cameraMake
        exif.lensSpecification = [module.focalLength, module.focalLength, module.fNumber, module.fNumber]
        exif.lensModel = "\(device.name) \(trim(module.focalLength))mm f/\(trim(module.fNumber))"
        exif.dateTimeOriginal = request.captureDate
        exif.appleContentIdentifier = request.livePhoto?.contentIdentifier
        exif.timeZoneOffsetSeconds = request.timeZoneOffsetSeconds
        // Merged frames add up their exposure; EXIF reports the per-frame exposure as phones do.
        exif.exposureTime = record.duration
        exif.fNumber = module.fNumber
        exif.iso = Int(record.iso.rounded())
        exif.focalLength = module.focalLength
        exif.focalLengthIn35mmFilm = Int(module.focalLength35mmEquivalent(forPhoto: request.photoSize).rounded())
        exif.exposureBiasValue = record.bias
        exif.flash = flashCode(request.flash, fired: plan.flash, hasFlash: module.hasFlash,
                               redEye: plan.flash && request.redEyeReduction)
        exif.orientation = request.orientation
        exif.colorSpace = ExifMetadata.colorSpaceTag(for: request.colorSpace)
        exif.pixelXDimension = request.photoSize.width
        exif.pixelYDimension = request.photoSize.height
        // The scene's APEX brightness as metered, flash left out (`ExposureMetering.brightnessValue` says how it relates
        // to the exposure).
        exif.brightnessValue = plan.metering.brightnessValue
        // ExposureProgram 1 manual / 2 normal; ExposureMode 0 auto, 1 manual, 2 auto bracket. A bracket's shots say how
        // they were exposed: a manual bracket's as set, an auto-exposure bracket's by the meter at each bias.
        let manual: Bool, bracketed: Bool
        switch request.bracket?.shots.first {
        case .manualExposure?: (manual, bracketed) = (true, false)
        case .autoExposure?: (manual, bracketed) = (false, true)
        case nil: (manual, bracketed) = (device.exposure.isManual, false)
        }
        exif.exposureProgram = manual ? 1 : 2
        exif.exposureMode = manual ? 1 : bracketed ? 2 : 0
        exif.meteringMode = 5
        exif.whiteBalance = device.whiteBalanceNeutral == nil ? 0 : 1   // 0 auto, 1 manual (locked gains)
        exif.sceneCaptureType = 0
        exif.sensingMethod = 2
        exif.sceneType = 1
        if let focus = device.focus {
            // Where and how far the lens focused: the standard SubjectDistance, and SubjectArea as iPhones write it.
            exif.subjectDistance = focus.distance
            exif.subjectArea = subjectArea(pointOfInterest: focus.pointOfInterest, photoSize: request.photoSize)
        }
        apply(request.metadata, to: &exif)
        return exif
    }

    /// SubjectArea (centre x, y, width, height) as iPhones write it, in the stored photo's pixels: the point of interest
    /// is Apple's (0, 0)–(1, 1) of the unrotated landscape picture, which is how the photo's pixels are stored (the
    /// turn is only the Orientation tag), so a portrait photo's area is where a landscape one's is, as an iPhone's is
    /// (an iPhone SE held upright, Orientation 6, writes 2013 1511 2217 1330 in its 4032×3024). The centre is the pixel
    /// the point falls on, counted from pixel centres (the middle of 4032×3024 is 2015, 1511, as an iPhone XS writes).
    /// The box is the auto-focus window: at the default, centred point 55 % × 44 % of the photo, an iPhone's
    /// (2217×1330 of 4032×3024 on the XS and SE, 1794×1079 of 3264×2448 on the iPhone 6); a point of interest set
    /// elsewhere (a tap) focuses a small window, 18.7 % × 25 % (753×756 of 4032×3024 on an iPhone 6s Plus). Both scale
    /// with the photo's size.
    package static func subjectArea(pointOfInterest point: SIMD2<Double>, photoSize: Size) -> [UInt16] {
        let w = Double(photoSize.width), h = Double(photoSize.height)
        func pixels(_ v: Double) -> UInt16 { UInt16(min(max(v.rounded(.down), 0), Double(UInt16.max))) }
        let centred = abs(point.x - 0.5) < 1e-9 && abs(point.y - 0.5) < 1e-9
        let (fw, fh) = centred ? (0.55, 0.44) : (0.187, 0.25)
        return [pixels(min(point.x * w - 0.5, w - 1)), pixels(min(point.y * h - 0.5, h - 1)), pixels(w * fw), pixels(h * fh)]
    }

    /// EXIF Flash bits: fired (0x01), mode (0x08 on, 0x10 off, 0x18 auto), no flash (0x20), red-eye (0x40).
    package static func flashCode(_ policy: FlashPolicy, fired: Bool, hasFlash: Bool, redEye: Bool) -> UInt16 {
        guard hasFlash else { return 0x20 }
        var code: UInt16
        switch policy {
        case .off: code = 0x10
        case .on: code = 0x08
        case .auto: code = 0x18
        }
        if fired { code |= 0x01 }
        if fired && redEye { code |= 0x40 }
        return code
    }

    private static func apply(_ overrides: MetadataOverrides, to exif: inout ExifMetadata) {
        if let v = overrides.make { exif.make = v }
        if let v = overrides.model { exif.model = v }
        if let v = overrides.software { exif.software = v }
        if let v = overrides.artist { exif.artist = v }
        if let v = overrides.copyright { exif.copyright = v }
        if let v = overrides.imageDescription { exif.imageDescription = v }
        if let v = overrides.userComment { exif.userComment = v }
        if let v = overrides.lensMake { exif.lensMake = v }
        if let v = overrides.lensModel { exif.lensModel = v }
        if let v = overrides.gps { exif.gps = v }
        if let v = overrides.orientation, (1...8).contains(v) { exif.orientation = v }
    }

    private static func trim(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
