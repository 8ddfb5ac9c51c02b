import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture demo`: a tour of the photo-capture API on the simulated phone, writing every photo.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Capture a set of photos that shows what OpenCapture does.")

    @Option(name: .shortAndLong, help: "Folder for the photos.") var output: String = "out/demo"
    @Option(help: "Session preset for the demo photos (photo = 12 MP).") var preset: PresetChoice = .photo
    @Option(help: "Simulation seed.") var seed: UInt64 = 1

    func validate() throws {
        // An empty name (an unset shell variable) would put the photos in the current folder unasked.
        guard !output.isEmpty else { throw CLIError("-o: give a folder for the photos") }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: output)
        try AtomicFile.makeFolder(directory)
        var rows: [(String, PrintingPhotoDelegate, Double)] = []

        func shoot(_ title: String, name: String, device choice: DeviceChoice = .wide, lighting: SimulatedLighting = .indoor,
                   bias: Float = 0, format: [String: Any]? = nil,
                   configure: (AVCapturePhotoSettings) -> Void = { _ in }) async throws {
            print("\n▶ \(title)")
            let options = try CameraOptions.parse(["--device", choice.rawValue, "--preset", preset.rawValue,
                                                   "--lighting", lighting.rawValue, "--seed", String(seed)])
            let (session, device, photoOutput) = try options.makeSession()
            try device.lockForConfiguration()
            device.exposureMode = .continuousAutoExposure
            device.setExposureTargetBias(bias)
            device.unlockForConfiguration()
            let settings = format.map { AVCapturePhotoSettings(format: $0) } ?? AVCapturePhotoSettings()
            if format?[AVVideoCodecKey] as? AVVideoCodecType == .hevc { settings.embeddedThumbnailPhotoFormat = CameraOptions.heicThumbnail }
            configure(settings)
            let delegate = PrintingPhotoDelegate(directory: directory, name: name, replacing: true)
            let started = Date()
            await delegate.capture(settings, with: photoOutput)
            rows.append((name, delegate, Date().timeIntervalSince(started)))
            if bias != 0 {
                // The device outlives this session: put the bias back so later photos are not over- or underexposed.
                try device.lockForConfiguration()
                device.setExposureTargetBias(0)
                device.unlockForConfiguration()
            }
            session.stopRunning()
            if let failure = delegate.failure { throw CLIError("\(title) failed: \(failure)") }
        }

        print("OpenCapture demo — Apple's photo-capture API on a simulated iPhone-class camera")
        print("Photos go to \(directory.path)")
        try await shoot("Back wide camera, indoor scene (first capture renders the scene)", name: "01-wide-indoor")
        try await shoot("Same request again: the scene is cached, this is the steady-state time", name: "02-wide-indoor-again")
        try await shoot("Same scene as HEIC (HEVC grid tiles) in Display P3: the poster's P3 greens survive", name: "02b-wide-heic",
                        format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        try await shoot("Telephoto camera (56 mm equivalent), same room", name: "03-tele", device: .tele)
        try await shoot("Front TrueDepth camera", name: "04-front", device: .front)
        try await shoot("Dark room, flashMode = .auto: the flash fires and lights near objects most", name: "05-dark-auto-flash",
                        lighting: .dark) { $0.flashMode = .auto }
        try await shoot("Dim room: automatic still-image stabilisation fuses several exposures", name: "06-dim-stabilized",
                        lighting: .dim) { $0.isAutoStillImageStabilizationEnabled = true }
        for bias: Float in [-2, 0, 2] {
            try await shoot("Exposure bias \(bias >= 0 ? "+" : "")\(Int(bias)) EV", name: "07-bias\(bias >= 0 ? "+" : "")\(Int(bias))",
                            bias: bias)
        }

        print("\n▶ Auto-exposure bracket −2/0/+2 EV, RAW + JPEG, with lens stabilisation (the window is 6 EV above the room),"
              + " then the RAW frames merged and developed: the view through the window")
        let bracketOptions = try CameraOptions.parse(["--preset", preset.rawValue, "--seed", String(seed)])
        let (bracketSession, _, bracketOutput) = try bracketOptions.makeSession()
        let bracket = AVCapturePhotoBracketSettings(
            rawPixelFormatType: bracketOutput.availableRawPhotoPixelFormatTypes.first ?? 0,
            processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            bracketedSettings: [-2, 0, 2].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
        bracket.isLensStabilizationEnabled = bracketOutput.isLensStabilizationDuringBracketedCaptureSupported
        let bracketDelegate = PrintingPhotoDelegate(directory: directory, name: "08-bracket", replacing: true)
        await bracketDelegate.capture(bracket, with: bracketOutput)
        bracketSession.stopRunning()
        if let failure = bracketDelegate.failure { throw CLIError("bracket failed: \(failure)") }
        try BracketCommand.fuse(bracketDelegate.photos, into: directory, name: "08-bracket", replacing: true)

        print("\n▶ Three requests in flight at once (VGA), each keeps its own order")
        let options = try CameraOptions.parse(["--preset", "vga", "--seed", String(seed)])
        let (vgaSession, _, vgaOutput) = try options.makeSession()
        defer { vgaSession.stopRunning() }
        let delegates = (1...3).map { PrintingPhotoDelegate(directory: directory, name: "09-in-flight-\($0)", quiet: true, replacing: true) }
        await withTaskGroup(of: Void.self) { group in
            for delegate in delegates {
                let settings = AVCapturePhotoSettings()
                group.addTask { await delegate.capture(settings, with: vgaOutput) }
            }
        }
        for delegate in delegates {
            print("  #\(delegate.resolved?.uniqueID ?? 0): \(delegate.photos.count) photo, \(delegate.written.first?.lastPathComponent ?? "-")")
        }

        print("\n▶ Invalid settings get a clear error, never a crash")
        let bad = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg,
                                                  kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        do { try vgaOutput.validate(bad) } catch { print("  validate → \(error)") }
        let reused = AVCapturePhotoSettings()
        let first = PrintingPhotoDelegate(directory: directory, name: "10-reuse", quiet: true, replacing: true)
        await first.capture(reused, with: vgaOutput)
        let second = PrintingPhotoDelegate(directory: directory, name: "10-reuse-again", replacing: true)
        await second.capture(reused, with: vgaOutput)

        print("\nSummary")
        print("  photo                    size         exposure   ISO    flash  frames  request→delivered")
        for (name, delegate, seconds) in rows {
            guard let photo = delegate.photos.first, let resolved = delegate.resolved else { continue }
            let exif = photo.metadata["{Exif}"] as? [String: Any] ?? [:]
            let d = resolved.photoDimensions
            let exposure = (exif["ExposureTime"] as? Double).map(formatSeconds) ?? "?"
            let iso = (exif["ISOSpeedRatings"] as? [Int])?.first ?? 0
            let columns = [name.padding(toLength: 24, withPad: " ", startingAt: 0),
                           "\(d.width)×\(d.height)".padding(toLength: 12, withPad: " ", startingAt: 0),
                           exposure.padding(toLength: 10, withPad: " ", startingAt: 0),
                           String(iso).padding(toLength: 6, withPad: " ", startingAt: 0),
                           (resolved.isFlashEnabled ? "fired" : "-").padding(toLength: 6, withPad: " ", startingAt: 0),
                           (resolved.isStillImageStabilizationEnabled ? "fused" : "1").padding(toLength: 7, withPad: " ", startingAt: 0),
                           String(format: "%.0f ms", seconds * 1000)]
            print("  " + columns.joined(separator: " "))
        }
        print("\nDone: \(rows.count + 10) photos (three of them RAW) and a fused HDR in \(directory.path)")
    }
}
