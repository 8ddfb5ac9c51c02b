import ArgumentParser
import Foundation
import OpenCapture

/// Options shared by `shoot` and `demo`: which camera, which scene.
struct CameraOptions: ParsableArguments {
    @Option(help: "Camera: wide, tele, dual or front.") var device: DeviceChoice = .wide
    @Option(help: "Session preset: photo (12 MP; the default but for record's, high), high (1080p), hd720, vga, medium, low (live: photo only).")
    var preset: PresetChoice?
    @Option(help: "Scene lighting: daylight, indoor, dim or dark.") var lighting: SimulatedLighting = .indoor
    @Option(help: "Simulation seed (same seed and settings give the same pixels; live and record run in real time, so their frames differ).") var seed: UInt64 = 1
    @Option(help: "Colour space: p3 (what a session with a photo output picks) or srgb.") var color: ColorChoice = .p3
    @Option(help: "Record this date instead of now (ISO 8601 with a zone, e.g. 2026-01-01T12:00:00+02:00); with the same --seed, shoot and bracket write identical files.")
    var date: String?

    /// The embedded thumbnail the CLI asks HEIC photos for, as the Camera app does: the default size, 320 pixels on
    /// the long side (320×240 for a 4:3 photo).
    static var heicThumbnail: [String: Any] { [AVVideoCodecKey: AVVideoCodecType.jpeg] }

    /// The preset asked for, else the photo preset.
    var sessionPreset: PresetChoice { preset ?? .photo }

    /// The fixed capture clock `--date` asks for, or nil for the system clock.
    func captureClock() throws -> CaptureClock? {
        guard let date else { return nil }
        let refusal = CLIError("--date '\(date)' must be an ISO 8601 date and time with a zone, like 2026-01-01T12:00:00+02:00")
        // The zone is read here, not left to the formatter: it takes offsets no zone has (+99:99), and the photo's
        // EXIF offset must be the one written (+0530 is +05:30, not UTC).
        guard let moment = ISO8601DateFormatter().date(from: date), let offset = Self.zoneOffset(of: date),
              let zone = TimeZone(secondsFromGMT: offset) else { throw refusal }
        return .fixed(moment, timeZone: zone)
    }

    /// The offset from UTC in seconds that an ISO 8601 date and time ends with: Z, ±HH:MM, ±HHMM or ±HH, at most
    /// 18 hours; nil for anything else.
    static func zoneOffset(of date: String) -> Int? {
        if date.hasSuffix("Z") || date.hasSuffix("z") { return 0 }
        guard let time = date.firstIndex(where: { $0 == "T" || $0 == "t" }),
              let sign = date[time...].lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let zone = date[date.index(after: sign)...]
        let parts = zone.split(separator: ":", omittingEmptySubsequences: false)
        let hours: Substring, minutes: Substring
        if parts.count == 2, parts[0].count == 2, parts[1].count == 2 {
            (hours, minutes) = (parts[0], parts[1])                // ±HH:MM
        } else if parts.count == 1, zone.count == 4 || zone.count == 2 {
            (hours, minutes) = (zone.prefix(2), zone.count == 4 ? zone.suffix(2) : "00")   // ±HHMM or ±HH
        } else {
            return nil
        }
        guard (hours + minutes).allSatisfy({ $0.isASCII && $0.isNumber }), let h = Int(hours), let m = Int(minutes),
              m < 60, h * 60 + m <= 18 * 60 else { return nil }
        return (date[sign] == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }

    /// A running session with the chosen camera and a photo output; `configure` sets up the device and output
    /// before `startRunning()` (as Apple's samples do), so the session warms up for what will be asked.
    func makeSession(configure: (AVCaptureDevice, AVCapturePhotoOutput) throws -> Void = { _, _ in })
        throws -> (AVCaptureSession, AVCaptureDevice, AVCapturePhotoOutput) {
        guard let device = AVCaptureDevice.default(device.deviceType, for: .video, position: device.position) else {
            throw CLIError("no \(device.rawValue) camera")
        }
        device.simulatedLighting = lighting
        device.simulationSeed = seed
        let session = AVCaptureSession()
        if let clock = try captureClock() { session.captureClock = clock }
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = sessionPreset.preset
        session.automaticallyConfiguresCaptureDeviceForWideColor = color == .p3
        let input = try AVCaptureDeviceInput(device: device)
        guard session.canAddInput(input), session.canAddOutput(output) else { throw CLIError("cannot configure the session") }
        session.addInput(input)
        session.addOutput(output)
        output.isHighResolutionCaptureEnabled = true
        output.maxPhotoQualityPrioritization = .quality
        session.commitConfiguration()
        if color == .srgb {
            try device.lockForConfiguration()
            device.activeColorSpace = .sRGB
            device.unlockForConfiguration()
        }
        try configure(device, output)
        session.startRunning()
        return (session, device, output)
    }
}

extension SimulatedLighting: ExpressibleByArgument {}

/// The `--color` option's values.
enum ColorChoice: String, ExpressibleByArgument {
    case p3, srgb
}

/// The `--preset` option's values.
enum PresetChoice: String, ExpressibleByArgument {
    case photo, high, hd720, vga, medium, low

    var preset: AVCaptureSession.Preset {
        switch self {
        case .photo: return .photo
        case .high: return .high
        case .hd720: return .hd1280x720
        case .vga: return .vga640x480
        case .medium: return .medium
        case .low: return .low
        }
    }
}

/// The `--flash` option's values.
enum FlashChoice: String, ExpressibleByArgument, CaseIterable {
    case off, on, auto
    var mode: AVCaptureDevice.FlashMode {
        switch self {
        case .off: return .off
        case .on: return .on
        case .auto: return .auto
        }
    }
}

/// The `--quality` option's values.
enum QualityChoice: String, ExpressibleByArgument {
    case speed, balanced, quality
    var prioritization: AVCapturePhotoOutput.QualityPrioritization {
        switch self {
        case .speed: return .speed
        case .balanced: return .balanced
        case .quality: return .quality
        }
    }
}
