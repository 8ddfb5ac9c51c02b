import CaptureCore

/// Why `FileInspector` could not report on a file (OpenCapture addition).
public enum FileInspectionError: DescribedError, Equatable, Sendable {
    /// The file could not be read from disk.
    case unreadableFile(path: String, reason: String)
    /// The bytes are not an image file OpenCapture recognises.
    case notRecognized(String)
    /// The data ends before the header or directory is complete.
    case truncated
    /// The file's structure is broken (bad header, directory or chunk).
    case malformed(String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "cannot read \(path): \(reason)"
        case .notRecognized(let why): return "not a recognised image file: \(why)"
        case .truncated: return "the file is truncated"
        case .malformed(let why): return "malformed file: \(why)"
        }
    }
}
