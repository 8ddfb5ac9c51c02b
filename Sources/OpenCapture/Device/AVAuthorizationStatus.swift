/// Whether the app may use a capture device (Apple's `AVAuthorizationStatus`). Simulated
/// devices are always authorised.
public enum AVAuthorizationStatus: Int, Sendable {
    case notDetermined = 0, restricted = 1, denied = 2, authorized = 3
}
