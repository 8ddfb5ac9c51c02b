import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats

/// A small simulator frame and its DNG, shared by the develop and inspect tests.
enum DevelopFixtures {
    static let size = Size(width: 320, height: 240)

    static func exif() -> ExifMetadata {
        var exif = ExifMetadata()
        exif.fNumber = 1.8
        exif.focalLength = 3.99
        exif.focalLengthIn35mmFilm = 28
        exif.flash = 0x10
        exif.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000)
        exif.lensModel = "Simulated back camera 3.99mm f/1.8"
        return exif
    }

    /// A metered frame of the living room (deterministic), its DNG, and the ground truth.
    static let frame: (raw: RawImage, dng: Data) = {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 3)
        let metering = camera.meter(size: size)
        let exposure = SensorExposure(size: size, duration: metering.duration, iso: metering.iso, seed: 5)
        let raw = camera.capture(exposure)
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Simulated iPhone", exif: exif())
        return (raw, try! DNGWriter.write(raw, metadata: metadata, preview: nil))
    }()
}
