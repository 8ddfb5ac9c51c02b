/// The kind of media a track, port or device carries (AVMediaFormat.h `AVMediaType`).
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Video ("vide").
    public static let video = AVMediaType(rawValue: "vide")
    /// Audio ("soun").
    public static let audio = AVMediaType(rawValue: "soun")
    /// Depth data ("dpth").
    public static let depthData = AVMediaType(rawValue: "dpth")
    /// Timed metadata ("meta").
    public static let metadata = AVMediaType(rawValue: "meta")
}
