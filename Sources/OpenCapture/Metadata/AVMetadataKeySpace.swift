/// A metadata key space (Apple's `AVMetadataKeySpace`): the QuickTime `mdta` keys and the common keys.
public struct AVMetadataKeySpace: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Common keys across formats ("comn").
    public static let common = AVMetadataKeySpace(rawValue: "comn")
    /// QuickTime metadata (`mdta` keys such as `com.apple.quicktime.author`).
    public static let quickTimeMetadata = AVMetadataKeySpace(rawValue: "mdta")
}
