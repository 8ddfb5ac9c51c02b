import CaptureCore

/// Why a depth computation could not run: typed, never a trap.
public enum DepthError: DescribedError, Equatable {
    /// The inputs' sizes or channel counts do not match what the operation needs.
    case mismatchedInputs(String)
    /// A parameter is outside its valid range.
    case invalidParameter(String)
    /// The input holds no usable measurement (for example a depth map with no finite value).
    case noData(String)

    public var description: String {
        switch self {
        case .mismatchedInputs(let what): return "mismatched inputs: \(what)"
        case .invalidParameter(let what): return "invalid parameter: \(what)"
        case .noData(let what): return "no usable data: \(what)"
        }
    }
}
