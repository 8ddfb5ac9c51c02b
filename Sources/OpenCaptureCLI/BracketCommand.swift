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
    @Flag(help: "Fuse the bracket: exposure fusion, HDR merge (.hdr) and its tone-mapped rendition.") var fuse = false
    @Flag(help: "Also deliver each shot's Bayer RAW photo as a DNG.") var raw = false
    @Option(name: .shortAndLong, help: "Folder for the photos.") var output: String = "out"

    func validate() throws {
        if (ev == nil) == (manual == nil) { throw ValidationError("give exactly one of --ev and --manual") }
        _ = try entries()
    }

    /// The bracket entries the options describe.
    func entries() throws -> [AVCaptureBracketedStillImageSettings] {
        if let ev {
            return try ev.split(separator: ",").map { text in
                guard let bias = Float(text.trimmingCharacters(in: .whitespaces)) else { throw ValidationError("--ev: '\(text)' is not a number") }
                return AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: bias)
            }
        }
        return try (manual ?? "").split(separator: ",").map { shot in
            let parts = shot.split(separator: "@")
            guard parts.count == 2, let seconds = parseSeconds(String(parts[0])), let iso = Float(parts[1]) else {
                throw ValidationError("--manual: '\(shot)' is not DURATION@ISO (e.g. 1/60@100)")
            }
            return AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                exposureDuration: CMTime(seconds: seconds, preferredTimescale: 1_000_000), iso: iso)
        }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (session, device, photoOutput) = try camera.makeSession()
        defer { session.stopRunning() }
        let rawFormat = raw ? (photoOutput.availableRawPhotoPixelFormatTypes.first ?? 0) : 0
        let settings = AVCapturePhotoBracketSettings(rawPixelFormatType: rawFormat, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                                     bracketedSettings: try entries())
        if raw { settings.rawEmbeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg] }
        settings.isLensStabilizationEnabled = lensStabilization
        try photoOutput.validate(settings)

        print("\(device.localizedName), \(camera.lighting.rawValue) scene, bracket of \(settings.bracketedSettings.count)"
              + " (up to \(photoOutput.maxBracketedCapturePhotoCount))")
        let delegate = PrintingPhotoDelegate(directory: directory, name: "bracket-\(settings.uniqueID)")
        await delegate.capture(settings, with: photoOutput)
        if let failure = delegate.failure { throw CLIError("bracket failed: \(failure)") }
        if fuse {
            try Self.fuse(delegate.photos.filter { !$0.isRawPhoto }, into: directory, name: "bracket-\(settings.uniqueID)")
        }
    }

    /// Fuses delivered photos and writes the results beside them.
    static func fuse(_ photos: [AVCapturePhoto], into directory: URL, name: String) throws {
        print("Fusing \(photos.count) shots")
        let start = Date()
        let result = try PhotoFusion().fuse(photos) { print("  \($0)") }
        try FuseCommand.write(result, base: directory.appendingPathComponent(name + "-fused"))
        print(String(format: "  fused in %.2f s", Date().timeIntervalSince(start)))
    }
}
