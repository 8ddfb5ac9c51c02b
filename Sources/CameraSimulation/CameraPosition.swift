/// Which side of the phone a camera module faces.
public enum CameraPosition: String, Sendable {
    /// Faces away from the user (+z in the scene's frame).
    case back
    /// Faces the user (−z in the scene's frame).
    case front
}
