import CaptureCore

/// Why a portrait could not be rendered: typed, never a trap.
public enum PortraitRenderingError: DescribedError, Equatable {
    /// The file is not a JPEG or HEIC photo.
    case unsupportedFile(String)
    /// The photo carries no depth (no HEIC auxiliary depth image, no JPEG MPF depth image).
    case noDepth
    /// The aperture or focus distance is not a positive number.
    case invalidParameter(String)

    public var description: String {
        switch self {
        case .unsupportedFile(let what): return "not a JPEG or HEIC photo: \(what)"
        case .noDepth: return "the photo carries no depth map (take one with `opencapture shoot --device dual --depth`)"
        case .invalidParameter(let what): return what
        }
    }
}
