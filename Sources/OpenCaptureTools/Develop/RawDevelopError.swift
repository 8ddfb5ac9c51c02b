import CaptureCore

/// Why a raw file could not be developed or a file could not be inspected (OpenCapture addition).
public enum RawDevelopError: DescribedError, Equatable, Sendable {
    /// The file could not be read from disk.
    case unreadableFile(path: String, reason: String)
    /// The bytes are not a raw file (or not an image file, for the inspector).
    case notRecognized(String)
    /// The data ends before the image is complete.
    case truncated
    /// The file is valid but uses something OpenCapture does not develop (X-Trans, Foveon, a Deflate-compressed DNG, …).
    case unsupported(String)
    /// A developer setting is out of range.
    case invalidSetting(String)
    /// The output could not be encoded.
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "cannot read \(path): \(reason)"
        case .notRecognized(let why): return "not a readable raw file: \(why)"
        case .truncated: return "the file is truncated"
        case .unsupported(let why): return "unsupported raw file: \(why)"
        case .invalidSetting(let why): return "invalid setting: \(why)"
        case .encodingFailed(let why): return "could not encode the photo: \(why)"
        }
    }
}
