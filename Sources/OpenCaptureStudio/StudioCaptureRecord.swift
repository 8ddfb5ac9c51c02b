import Foundation

/// One shutter press in the studio: its mode and the library assets it produced, by role
/// ("photo", "raw", "frame-1"…, "fused", "toneMapped"), and the stage times its timeline drew.
struct StudioCaptureRecord: Codable, Sendable {
    var id: String
    var mode: String
    var device: String
    var date: Date
    var assets: [String: String]
    var events: [StudioCaptureEvent]
}

/// A delegate callback or processing step of a capture, milliseconds from the shutter press.
struct StudioCaptureEvent: Codable, Sendable {
    var name: String
    var start: Double
    var end: Double
    var detail: String?
}
