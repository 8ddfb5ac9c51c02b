import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture shoot`: one photo request, printing every delegate event as it happens.
struct ShootCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "shoot", abstract: "Take a photo and print each delegate event with its time.")

    @OptionGroup var camera: CameraOptions
    @Option(help: "Output format: heic, jpeg, bgra or 420f (with --raw: also none).") var format: String = "jpeg"
    @Flag(help: "Also deliver the Bayer RAW photo as a DNG.") var raw = false
    @Option(help: "JPEG/HEIC quality, 0…1.") var quality: Double = 0.9
    @Option(help: "Flash: off, on or auto (default: auto where the camera has a flash).") var flash: FlashChoice?
    @Option(parsing: .unconditional, help: "Exposure target bias in EV (auto exposure).") var bias: Float = 0
    @Option(help: "Manual ISO (with --duration).") var iso: Float?
    @Option(parsing: .unconditional, help: "Manual exposure duration in seconds, e.g. 0.01 or 1/100 (with --iso).") var duration: String?
    @Option(help: "Quality prioritization: speed, balanced or quality.") var prioritization: QualityChoice = .balanced
    @Flag(help: "Deliver the format's high-resolution still size.") var highResolution = false
    @Option(help: "Number of photos to request back to back.") var count: Int = 1
    @Flag(help: "Deliver depth (dual or front camera): embedded in the photo, plus depth.pfm and a colour-mapped depth.png.")
    var depth = false
    @Flag(help: "With --depth: also the portrait effects matte (embedded, plus matte.png).") var matte = false
    @Option(help: "With --depth: disparity (1/m, the default) or depth (metres), as activeDepthDataFormat.")
    var depthType: DepthTypeChoice?
    @Option(help: ArgumentHelp("Tap to focus: the focus point of interest as x,y in 0…1 of the landscape frame (0,0 top left); the matte's subject follows it.",
                               valueName: "x,y")) var focusPoint: String?
    @Option(name: .shortAndLong, help: "Folder for the photos.") var output: String = "out"

    func validate() throws {
        // An empty name (an unset shell variable) would put the photos in the current folder unasked.
        guard !output.isEmpty else { throw CLIError("-o: give a folder for the photos") }
        if (iso == nil) != (duration == nil) { throw CLIError("--iso and --duration go together") }
        if let duration, parseSeconds(duration) == nil {
            throw CLIError("--duration '\(duration)' must be a positive number of seconds like 0.01 or 1/100")
        }
        if let iso, !(iso.isFinite && iso > 0) { throw CLIError("--iso \(iso) must be a positive number") }
        // Formats are checked before any folder is made.
        let formats = ["heic", "hevc", "jpeg", "jpg", "bgra", "420f"] + (raw ? ["none"] : [])
        guard formats.contains(format) else {
            throw CLIError("unknown --format \(format): use heic, jpeg, bgra or 420f" + (raw ? " or none" : " (none only with --raw)"))
        }
        guard bias.isFinite else { throw CLIError("--bias must be a number of EV") }
        guard quality.isFinite, (0...1).contains(quality) else { throw CLIError("--quality \(quality) must be within 0…1") }
        guard (1...1000).contains(count) else { throw CLIError("--count must be 1…1000") }
        if matte && !depth { throw CLIError("--matte needs --depth") }
        if depthType != nil && !depth { throw CLIError("--depth-type needs --depth") }
        if let focusPoint, Self.point(focusPoint) == nil {
            throw CLIError("--focus-point '\(focusPoint)' must be x,y with both within 0…1, e.g. 0.5,0.3")
        }
    }

    /// "x,y" with both in 0…1.
    static func point(_ text: String) -> CGPoint? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) else { return nil }
        return CGPoint(x: x, y: y)
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: output)
        let (session, device, photoOutput) = try camera.makeSession(configure: configure)
        defer { session.stopRunning() }
        try AtomicFile.makeFolder(directory)

        print("\(device.localizedName), \(camera.lighting.rawValue) scene, \(device.activeColorSpace == .P3_D65 ? "Display P3" : "sRGB")")
        let start = Date()
        for index in 1...count {
            let settings = try makeSettings(output: photoOutput)
            let delegate = PrintingPhotoDelegate(directory: directory, naming: .numbered(prefix: "photo"), start: start)
            await delegate.capture(settings, with: photoOutput)
            if let failure = delegate.failure { throw CLIError("photo \(index) failed: \(failure)") }
        }
    }

    /// Exposure, focus and depth, set before the session starts.
    private func configure(_ device: AVCaptureDevice, _ photoOutput: AVCapturePhotoOutput) throws {
        try device.lockForConfiguration()
        if let iso, let duration, let seconds = parseSeconds(duration) {
            let format = device.activeFormat
            guard (format.minISO...format.maxISO).contains(iso),
                  (format.minExposureDuration.seconds...format.maxExposureDuration.seconds).contains(seconds) else {
                device.unlockForConfiguration()
                throw CLIError("ISO must be \(Int(format.minISO))…\(Int(format.maxISO)) and duration "
                    + "\(formatSeconds(format.minExposureDuration.seconds))…\(formatSeconds(format.maxExposureDuration.seconds))")
            }
            device.setExposureModeCustom(duration: CMTime(seconds: seconds, preferredTimescale: 1_000_000), iso: iso)
        } else {
            guard (device.minExposureTargetBias...device.maxExposureTargetBias).contains(bias) else {
                device.unlockForConfiguration()
                throw CLIError("--bias \(bias) must be within \(device.minExposureTargetBias)…\(device.maxExposureTargetBias) EV")
            }
            device.exposureMode = .continuousAutoExposure
            device.setExposureTargetBias(bias)
        }
        if let focusPoint, let point = Self.point(focusPoint) {
            guard device.isFocusPointOfInterestSupported else {
                device.unlockForConfiguration()
                throw CLIError("\(device.localizedName) has a fixed-focus lens: --focus-point does not apply")
            }
            device.focusPointOfInterest = point
            device.focusMode = .autoFocus
        }
        if depth {
            let wanted = (depthType ?? .disparity) == .depth ? kCVPixelFormatType_DepthFloat16 : kCVPixelFormatType_DisparityFloat16
            let formats = device.activeFormat.supportedDepthDataFormats
            if let format = formats.filter({ CMFormatDescriptionGetMediaSubType($0.formatDescription) == wanted })
                .max(by: { CMVideoFormatDescriptionGetDimensions($0.formatDescription).width
                    < CMVideoFormatDescriptionGetDimensions($1.formatDescription).width }) {
                device.activeDepthDataFormat = format
            }
        }
        device.unlockForConfiguration()
        if depth {
            guard photoOutput.isDepthDataDeliverySupported else {
                guard [.builtInDualCamera, .builtInTrueDepthCamera].contains(device.deviceType) else {
                    throw CLIError("\(device.localizedName) does not measure depth: use --device dual or --device front")
                }
                throw CLIError("\(device.localizedName) has no depth in the --preset \(camera.sessionPreset.rawValue) format "
                    + "(the photo preset's, the default, has)")
            }
            photoOutput.isDepthDataDeliveryEnabled = true
            photoOutput.isPortraitEffectsMatteDeliveryEnabled = matte
        }
    }

    private func makeSettings(output: AVCapturePhotoOutput) throws -> AVCapturePhotoSettings {
        let processed: [String: Any]?
        switch format {
        case "jpeg", "jpg":
            processed = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoCompressionPropertiesKey: [AVVideoQualityKey: quality]]
        case "heic", "hevc":
            processed = [AVVideoCodecKey: AVVideoCodecType.hevc, AVVideoCompressionPropertiesKey: [AVVideoQualityKey: quality]]
        case "bgra":
            processed = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        case "420f":
            processed = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange]
        case "none" where raw:
            processed = nil
        default:
            throw CLIError("unknown --format \(format): use heic, jpeg, bgra or 420f" + (raw ? " or none" : ""))
        }
        let settings: AVCapturePhotoSettings
        if raw {
            guard let rawFormat = output.availableRawPhotoPixelFormatTypes.first else { throw CLIError("this camera has no RAW format") }
            settings = AVCapturePhotoSettings(rawPixelFormatType: rawFormat, processedFormat: processed)
            settings.rawEmbeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        } else {
            settings = AVCapturePhotoSettings(format: processed)
        }
        if format == "heic" || format == "hevc" { settings.embeddedThumbnailPhotoFormat = CameraOptions.heicThumbnail }
        if let flash, !output.supportedFlashModes.contains(flash.mode) {
            throw CLIError("--flash \(flash.rawValue): this camera has no flash (its modes: "
                + FlashChoice.allCases.filter { output.supportedFlashModes.contains($0.mode) }.map(\.rawValue).joined(separator: ", ") + ")")
        }
        settings.flashMode = flash?.mode ?? (output.supportedFlashModes.contains(.auto) ? .auto : .off)
        settings.photoQualityPrioritization = raw ? .speed : prioritization.prioritization
        if raw { settings.isAutoStillImageStabilizationEnabled = false }
        settings.isHighResolutionPhotoEnabled = highResolution
        if depth {
            settings.isDepthDataDeliveryEnabled = true
            settings.isCameraCalibrationDataDeliveryEnabled = true
            settings.isPortraitEffectsMatteDeliveryEnabled = matte
        }
        try output.validate(settings)
        return settings
    }
}

/// The `--depth-type` option's values.
enum DepthTypeChoice: String, ExpressibleByArgument, CaseIterable {
    case disparity, depth
}

/// Parses "0.01" or "1/100" into a positive, finite number of seconds; nil for anything else.
func parseSeconds(_ text: String) -> Double? {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
    let value: Double
    if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d > 0 {
        value = n / d
    } else if parts.count == 1, let v = Double(parts[0]) {
        value = v
    } else {
        return nil
    }
    return value.isFinite && value > 0 ? value : nil
}

/// A one-line error for the command line.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A duration in seconds, as a Double.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
