import CaptureCore

/// Errors thrown by the MediaFormats encoders, decoders and metadata readers.
/// Bad input always surfaces as one of these, never as a crash or a process exit.
public enum MediaFormatError: DescribedError, Equatable, Sendable {
    /// The input is not a valid image of the expected kind (bad signature, corrupt stream).
    case invalidImage(String)
    /// The input is valid but uses a feature this module does not handle (e.g. a BigTIFF raw file).
    case unsupported(String)
    /// The underlying encoder reported a failure.
    case encoderFailed(String)
    /// The underlying decoder reported a failure.
    case decoderFailed(String)
    /// The data ends before the image or structure is complete.
    case truncated
    /// Metadata (EXIF/TIFF) is missing or malformed.
    case invalidMetadata(String)
    /// A file could not be created, written or moved into place (folder missing or read-only, disk full).
    case writeFailed(String)

    public var description: String {
        switch self {
        case .invalidImage(let m): return "invalid image: \(m)"
        case .unsupported(let m): return "unsupported: \(m)"
        case .encoderFailed(let m): return "encoder failed: \(m)"
        case .decoderFailed(let m): return "decoder failed: \(m)"
        case .truncated: return "data truncated"
        case .invalidMetadata(let m): return "invalid metadata: \(m)"
        case .writeFailed(let m): return "cannot write: \(m)"
        }
    }
}
