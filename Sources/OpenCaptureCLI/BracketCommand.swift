import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture bracket`: an auto- or manual-exposure bracket, optionally fused into one photo.
struct BracketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bracket",
        abstract: "Shoot an exposure bracket (and fuse it with --fuse).",
        discussion: "Examples: opencapture bracket --ev=-2,0,2 --fuse    opencapture bracket --manual 1/500@50,1/60@50,1/8@50")

    @OptionGroup var camera: CameraOptions
    @Option(parsing: .unconditional, help: "Auto-exposure biases in EV, e.g. -2,0,2.") var ev: String?
    @Option(help: "Manual shots as DURATION@ISO, e.g. 1/500@50,1/60@50,1/8@50.") var manual: String?
    @Flag(help: "Keep optical stabilisation on across the bracket (where supported).") var lensStabilization = false
    @Flag(help: "Fuse the bracket: exposure fusion, HDR merge (.hdr) and its tone-mapped rendition; with --raw, the RAW frames are merged before developing, as a phone's HDR does.") var fuse = false
    @Flag(help: "Also deliver each shot's Bayer RAW photo as a DNG.") var raw = false
    @Option(name: .shortAndLong, help: "Folder for the photos.") var output: String = "out"

    func validate() throws {
        // An empty name (an unset shell variable) would put the photos in the current folder unasked.
        guard !output.isEmpty else { throw CLIError("-o: give a folder for the photos") }
        if (ev == nil) == (manual == nil) { throw CLIError("give exactly one of --ev and --manual") }
        _ = try entries()
    }

    /// The bracket entries the options describe.
    func entries() throws -> [AVCaptureBracketedStillImageSettings] {
        if let ev {
            return try ev.split(separator: ",", omittingEmptySubsequences: false).map { text in
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { throw CLIError("--ev '\(ev)' has an empty entry: give biases like -2,0,2") }
                guard let bias = Float(trimmed), bias.isFinite else { throw CLIError("--ev: '\(trimmed)' is not a number") }
                return AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: bias)
            }
        }
        return try (manual ?? "").split(separator: ",", omittingEmptySubsequences: false).map { shot in
            let parts = shot.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, let seconds = parseSeconds(String(parts[0])),
                  let iso = Float(parts[1].trimmingCharacters(in: .whitespaces)), iso.isFinite, iso > 0 else {
                throw CLIError("--manual: '\(shot)' is not DURATION@ISO with positive values (e.g. 1/60@100)")
            }
            return AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                exposureDuration: CMTime(seconds: seconds, preferredTimescale: 1_000_000), iso: iso)
        }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: output)
        let (session, device, photoOutput) = try camera.makeSession()
        defer { session.stopRunning() }
        try Self.checkRanges(try entries(), device: device)
        try AtomicFile.makeFolder(directory)
        let rawFormat = raw ? (photoOutput.availableRawPhotoPixelFormatTypes.first ?? 0) : 0
        let settings = AVCapturePhotoBracketSettings(rawPixelFormatType: rawFormat, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                                     bracketedSettings: try entries())
        if raw { settings.rawEmbeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg] }
        settings.isLensStabilizationEnabled = lensStabilization
        do { try photoOutput.validate(settings) } catch { throw CLIError("\(error)") }

        print("\(device.localizedName), \(camera.lighting.rawValue) scene, bracket of \(settings.bracketedSettings.count)"
              + " (up to \(photoOutput.maxBracketedCapturePhotoCount))")
        let delegate = PrintingPhotoDelegate(directory: directory, naming: .numbered(prefix: "bracket"))
        await delegate.capture(settings, with: photoOutput)
        if let failure = delegate.failure { throw CLIError("bracket failed: \(failure)") }
        if fuse {
            // With RAW photos, `PhotoFusion` merges those (raw merge, then develop); otherwise the processed ones.
            try Self.fuse(delegate.photos, into: directory, name: delegate.name ?? "bracket-\(OutputNumbering.next("bracket", in: directory))")
        }
    }

    /// Checks each entry's bias, ISO and duration against the device, so an impossible value is one clear error.
    static func checkRanges(_ entries: [AVCaptureBracketedStillImageSettings], device: AVCaptureDevice) throws {
        let format = device.activeFormat
        for entry in entries {
            if let auto = entry as? AVCaptureAutoExposureBracketedStillImageSettings {
                let bias = auto.exposureTargetBias
                guard (device.minExposureTargetBias...device.maxExposureTargetBias).contains(bias) else {
                    throw CLIError("--ev \(bias) must be within \(device.minExposureTargetBias)…\(device.maxExposureTargetBias) EV")
                }
            } else if let manual = entry as? AVCaptureManualExposureBracketedStillImageSettings {
                let seconds = manual.exposureDuration.seconds
                guard (format.minISO...format.maxISO).contains(manual.iso),
                      (format.minExposureDuration.seconds...format.maxExposureDuration.seconds).contains(seconds) else {
                    throw CLIError("--manual: ISO must be \(Int(format.minISO))…\(Int(format.maxISO)) and duration "
                        + "\(formatSeconds(format.minExposureDuration.seconds))…\(formatSeconds(format.maxExposureDuration.seconds))")
                }
            }
        }
    }

    /// Fuses delivered photos and writes the results beside them (over files of the same names only if `replacing`),
    /// printing each step's time.
    static func fuse(_ photos: [AVCapturePhoto], into directory: URL, name: String, replacing: Bool = false) throws {
        let raws = photos.filter(\.isRawPhoto).count
        print(raws >= 2 ? "Fusing \(raws) shots from their RAW photos" : "Fusing \(photos.count) shots")
        let clock = ContinuousClock(), start = clock.now
        let result = try PhotoFusion().fuse(photos)
        let writeStart = clock.now
        try FuseCommand.write(result, base: directory.appendingPathComponent(name + "-fused"), replacing: replacing)
        let write = writeStart.duration(to: clock.now), total = start.duration(to: clock.now)
        for timing in result.timings {
            print("  " + timing.step.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%7.3f s", timing.seconds))
        }
        print("  " + "write files".padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%7.3f s", seconds(write)))
        print("  " + "fusion end to end".padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%7.3f s", seconds(total)))
    }
}
