/// Why a JPEG's image data cannot hold its whole picture, seen from its bytes without decoding
/// (`JPEGSegments.imageDataProblem(in:)`; OpenCapture addition).
public enum JPEGImageDataProblem: Sendable, Equatable, CustomStringConvertible {
    /// The data runs out before its end-of-image marker: the file was cut inside its image data.
    case cutShort
    /// The data from the first scan to the end marker (`bytes`) is less than the frame its header claims needs at the
    /// very least (`minimumBytes`): the data ends long before such a frame is complete (a header that lies about the
    /// size, or data lost from the middle).
    case tooShortForFrame(width: Int, height: Int, bytes: Int, minimumBytes: Int)

    public var description: String {
        switch self {
        case .cutShort:
            "cut short inside its image data"
        case let .tooShortForFrame(width, height, bytes, minimumBytes):
            "its header claims \(width)×\(height) pixels, but its image data (\(bytes) bytes) ends long before such a frame is "
                + "complete (it needs at least \(minimumBytes) bytes)"
        }
    }
}
