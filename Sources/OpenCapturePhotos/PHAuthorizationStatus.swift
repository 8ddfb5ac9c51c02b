/// Whether the app may use the photo library (Apple's `PHAuthorizationStatus`).
///
/// OpenCapture's library is a folder the process can write, so the status is always `.authorized`.
public enum PHAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4
}
