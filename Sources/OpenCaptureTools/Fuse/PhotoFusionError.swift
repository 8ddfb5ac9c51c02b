import CaptureCore

/// Why `PhotoFusion` could not fuse a bracket (OpenCapture addition).
public enum PhotoFusionError: DescribedError, Equatable, Sendable {
    /// Fewer than two images.
    case notEnoughImages(Int)
    /// An input could not be read or decoded.
    case unreadable(String, reason: String)
    /// The images do not all have the same size (which two differ, and how).
    case sizeMismatch(String)
    /// The images declare different colour spaces (which two differ).
    case mixedColorSpaces(String)
    /// The images' stored pixels are turned differently (EXIF orientations differ: which two, and how).
    case mixedOrientations(String)
    /// `exposures` has the wrong count or a non-positive value, or a setting is out of range.
    case invalidExposures(String)
    /// The fusion engine refused the input.
    case fusionFailed(String)

    public var description: String {
        switch self {
        case .notEnoughImages(let n): return "a bracket needs at least 2 images, got \(n)"
        case .unreadable(let name, let reason): return "cannot read \(name): \(reason)"
        case .sizeMismatch(let which): return "the images of a bracket must all have the same size: \(which)"
        case .mixedColorSpaces(let which): return "the images of a bracket must share one colour space: \(which)"
        case .mixedOrientations(let which): return "the images of a bracket must be stored the same way up: \(which)"
        case .invalidExposures(let why): return "invalid exposures: \(why)"
        case .fusionFailed(let why): return "fusion failed: \(why)"
        }
    }
}
