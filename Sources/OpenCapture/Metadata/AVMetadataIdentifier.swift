/// A key space and key in one (Apple's `AVMetadataIdentifier`, "keySpace/key"), the subset Live Photo movies use.
public struct AVMetadataIdentifier: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let commonIdentifierAuthor = AVMetadataIdentifier(rawValue: "common/author")
    public static let commonIdentifierCreator = AVMetadataIdentifier(rawValue: "common/creator")
    public static let commonIdentifierTitle = AVMetadataIdentifier(rawValue: "common/title")
    public static let commonIdentifierDescription = AVMetadataIdentifier(rawValue: "common/description")
    public static let commonIdentifierCopyrights = AVMetadataIdentifier(rawValue: "common/copyrights")
    public static let commonIdentifierLocation = AVMetadataIdentifier(rawValue: "common/location")
    public static let commonIdentifierCreationDate = AVMetadataIdentifier(rawValue: "common/creationDate")
    public static let commonIdentifierSoftware = AVMetadataIdentifier(rawValue: "common/software")
    public static let commonIdentifierMake = AVMetadataIdentifier(rawValue: "common/make")
    public static let commonIdentifierModel = AVMetadataIdentifier(rawValue: "common/model")
    public static let quickTimeMetadataAuthor = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.author")
    public static let quickTimeMetadataTitle = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.title")
    public static let quickTimeMetadataDescription = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.description")
    public static let quickTimeMetadataCopyright = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.copyright")
    public static let quickTimeMetadataLocationISO6709 = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.ISO6709")
    public static let quickTimeMetadataCreationDate = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.creationdate")
    public static let quickTimeMetadataSoftware = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.software")
    public static let quickTimeMetadataMake = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.make")
    public static let quickTimeMetadataModel = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.model")
    public static let quickTimeMetadataContentIdentifier = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.content.identifier")
}
