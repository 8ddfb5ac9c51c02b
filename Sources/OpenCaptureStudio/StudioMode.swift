import OpenCapture

/// What the shutter does in the studio.
enum StudioMode: String, Sendable, CaseIterable {
    case photo, bracket, raw, depth, livePhoto

    /// Why a mode cannot be used with the studio's session preset, or nil when it can.
    func unavailableReason(preset: AVCaptureSession.Preset) -> String? {
        switch self {
        case .livePhoto where preset != .photo: return "Live Photos need the photo preset (opencapture studio --preset photo)"
        // Depth maps come with 4:3 formats at least 320 wide only (AVCaptureDevice.Format.depthSizes), as on iPhones.
        case .depth where ![.photo, .vga640x480, .medium].contains(preset):
            return "depth needs a 4:3 preset (opencapture studio --preset photo or vga)"
        default: return nil
        }
    }

    var label: String {
        switch self {
        case .photo: return "Photo"
        case .bracket: return "Bracket + fusion"
        case .raw: return "RAW + JPEG"
        case .depth: return "Depth"
        case .livePhoto: return "Live Photo"
        }
    }
}
