/// A metadata key within a key space (Apple's `AVMetadataKey`), the subset Live Photo movies use.
public struct AVMetadataKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let commonKeyAuthor = AVMetadataKey(rawValue: "author")
    public static let commonKeyCreator = AVMetadataKey(rawValue: "creator")
    public static let commonKeyTitle = AVMetadataKey(rawValue: "title")
    public static let commonKeyDescription = AVMetadataKey(rawValue: "description")
    public static let commonKeyCopyrights = AVMetadataKey(rawValue: "copyrights")
    public static let commonKeyLocation = AVMetadataKey(rawValue: "location")
    public static let commonKeyCreationDate = AVMetadataKey(rawValue: "creationDate")
    public static let commonKeySoftware = AVMetadataKey(rawValue: "software")
    public static let commonKeyMake = AVMetadataKey(rawValue: "make")
    public static let commonKeyModel = AVMetadataKey(rawValue: "model")
    public static let quickTimeMetadataKeyAuthor = AVMetadataKey(rawValue: "com.apple.quicktime.author")
    public static let quickTimeMetadataKeyTitle = AVMetadataKey(rawValue: "com.apple.quicktime.title")
    public static let quickTimeMetadataKeyDescription = AVMetadataKey(rawValue: "com.apple.quicktime.description")
    public static let quickTimeMetadataKeyCopyright = AVMetadataKey(rawValue: "com.apple.quicktime.copyright")
    public static let quickTimeMetadataKeyLocationISO6709 = AVMetadataKey(rawValue: "com.apple.quicktime.location.ISO6709")
    public static let quickTimeMetadataKeyCreationDate = AVMetadataKey(rawValue: "com.apple.quicktime.creationdate")
    public static let quickTimeMetadataKeySoftware = AVMetadataKey(rawValue: "com.apple.quicktime.software")
    public static let quickTimeMetadataKeyMake = AVMetadataKey(rawValue: "com.apple.quicktime.make")
    public static let quickTimeMetadataKeyModel = AVMetadataKey(rawValue: "com.apple.quicktime.model")
    /// The Live Photo pairing key: the system writes it, settings may not.
    public static let quickTimeMetadataKeyContentIdentifier = AVMetadataKey(rawValue: "com.apple.quicktime.content.identifier")
}
