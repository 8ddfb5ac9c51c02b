/// What the shutter does in the studio.
enum StudioMode: String, Sendable, CaseIterable {
    case photo, bracket, raw, depth, livePhoto

    /// Why a mode cannot be used yet, or nil when it can.
    var unavailableReason: String? {
        switch self {
        case .livePhoto: return "Live Photos need the running frame stream, which OpenCapture does not simulate yet"
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
