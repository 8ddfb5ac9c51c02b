import ArgumentParser
import Foundation
import OpenCapture

/// Options shared by `shoot` and `demo`: which camera, which scene.
struct CameraOptions: ParsableArguments {
    @Option(help: "Camera: wide, tele, dual or front.") var device: DeviceChoice = .wide
    @Option(help: "Session preset: photo (12 MP), high (1080p), hd720, vga, medium, low.") var preset: PresetChoice = .photo
    @Option(help: "Scene lighting: daylight, indoor, dim or dark.") var lighting: SimulatedLighting = .indoor
    @Option(help: "Simulation seed (same seed and settings give the same pixels).") var seed: UInt64 = 1
    @Option(help: "Colour space: p3 (what a session with a photo output picks) or srgb.") var color: ColorChoice = .p3

    /// A running session with the chosen camera and a photo output.
    func makeSession() throws -> (AVCaptureSession, AVCaptureDevice, AVCapturePhotoOutput) {
        guard let device = AVCaptureDevice.default(device.deviceType, for: .video, position: device.position) else {
            throw CLIError("no \(device.rawValue) camera")
        }
        device.simulatedLighting = lighting
        device.simulationSeed = seed
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = preset.preset
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
enum FlashChoice: String, ExpressibleByArgument {
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
