/// The kind of access asked for (Apple's `PHAccessLevel`): adding only, or reading and writing.
public enum PHAccessLevel: Int, Sendable {
    case addOnly = 1
    case readWrite = 2
}
