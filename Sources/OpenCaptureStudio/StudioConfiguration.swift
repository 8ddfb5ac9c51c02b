import Foundation
import OpenCapture

/// Where and how `opencapture studio` serves (OpenCapture addition).
public struct StudioConfiguration: Sendable {
    /// Address to listen on; loopback unless the user asks otherwise.
    public var host = "127.0.0.1"
    /// Port (0: any free port, reported by `onListening`).
    public var port = 8080
    /// The photo library folder (nil: `PHPhotoLibrary.shared()`'s).
    public var libraryURL: URL?
    /// Session preset of the studio's camera (`.photo` is 12 MP; smaller presets answer faster).
    public var preset: AVCaptureSession.Preset = .photo
    /// Scene lighting to start with.
    public var lighting: SimulatedLighting = .indoor
    /// Largest request body accepted, bytes.
    public var maxBodySize = 16 * 1024

    public init() {}
}
