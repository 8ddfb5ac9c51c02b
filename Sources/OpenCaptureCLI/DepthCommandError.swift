/// Why `opencapture depth` could not run: one plain line each.
enum DepthCommandError: Error, CustomStringConvertible {
    /// A file that is not a PNG, JPEG or TIFF image this build decodes, or that could not be read.
    case unreadable(path: String, reason: String)
    /// The two images differ in size (they must be a rectified pair).
    case sizeMismatch(left: String, right: String)
    /// The disparity range is empty or impossible.
    case invalidRange(String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        case .sizeMismatch(let left, let right): return "the images differ in size (left \(left), right \(right)); give a rectified pair"
        case .invalidRange(let what): return what
        }
    }
}
