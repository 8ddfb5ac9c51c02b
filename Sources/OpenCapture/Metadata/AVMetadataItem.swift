import CaptureCore
import Foundation

/// One metadata entry (Apple's `AVMetadataItem`): an identifier (or key space and key) and a value. Live Photo
/// movies take these through `AVCapturePhotoSettings.livePhotoMovieMetadata` and write them as QuickTime `mdta`
/// keys; common keys map to their QuickTime counterparts (`common/author` → `com.apple.quicktime.author`).
///
/// `@unchecked Sendable`: every stored property is a `Locked` value (set only through `AVMutableMetadataItem`).
public class AVMetadataItem: NSObject, NSCopying, @unchecked Sendable {
    @Locked var storedIdentifier: AVMetadataIdentifier? = nil
    @Locked var storedKeySpace: AVMetadataKeySpace? = nil
    @Locked var storedKey: (any NSCopying & NSObjectProtocol)? = nil
    @Locked var storedValue: (any NSCopying & NSObjectProtocol)? = nil
    @Locked var storedDataType: String? = nil
    @Locked var storedLanguageTag: String? = nil

    override init() { super.init() }

    /// "keySpace/key"; derived from them when only those were set.
    public var identifier: AVMetadataIdentifier? {
        if let id = storedIdentifier { return id }
        guard let space = storedKeySpace, let key = (storedKey as? NSString).map({ String($0) }) else { return nil }
        return AVMetadataIdentifier(rawValue: "\(space == .common ? "common" : space.rawValue)/\(key)")
    }
    /// The key space; derived from the identifier when only it was set.
    public var keySpace: AVMetadataKeySpace? {
        if let space = storedKeySpace { return space }
        return storedIdentifier.flatMap { Self.split($0)?.space }
    }
    /// The key; derived from the identifier when only it was set.
    public var key: (any NSCopying & NSObjectProtocol)? {
        if let key = storedKey { return key }
        return storedIdentifier.flatMap { Self.split($0).map { NSString(string: $0.key) } }
    }
    public var value: (any NSCopying & NSObjectProtocol)? { storedValue }
    public var dataType: String? { storedDataType }
    public var extendedLanguageTag: String? { storedLanguageTag }
    /// The value as a string (strings, numbers and dates), else nil.
    public var stringValue: String? {
        switch storedValue {
        case let s as NSString: return String(s)
        case let n as NSNumber: return n.stringValue
        case let d as NSDate: return ISO8601DateFormatter().string(from: d as Date)
        default: return nil
        }
    }
    public var numberValue: NSNumber? { storedValue as? NSNumber }
    public var dateValue: Date? { (storedValue as? NSDate).map { $0 as Date } }
    /// The common key this item corresponds to, if any.
    public var commonKey: AVMetadataKey? {
        guard let id = identifier, let (space, key) = Self.split(id) else { return nil }
        if space == .common { return AVMetadataKey(rawValue: key) }
        return Self.commonForQuickTime[key]
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = AVMetadataItem()
        copy.storedIdentifier = storedIdentifier
        copy.storedKeySpace = storedKeySpace
        copy.storedKey = storedKey
        copy.storedValue = storedValue
        copy.storedDataType = storedDataType
        copy.storedLanguageTag = storedLanguageTag
        return copy
    }

    /// (key space, key) of "space/key".
    static func split(_ identifier: AVMetadataIdentifier) -> (space: AVMetadataKeySpace, key: String)? {
        guard let slash = identifier.rawValue.firstIndex(of: "/") else { return nil }
        let space = String(identifier.rawValue[..<slash]), key = String(identifier.rawValue[identifier.rawValue.index(after: slash)...])
        return (space == "common" ? .common : AVMetadataKeySpace(rawValue: space), key)
    }

    static let commonForQuickTime: [String: AVMetadataKey] = [
        "com.apple.quicktime.author": .commonKeyAuthor, "com.apple.quicktime.title": .commonKeyTitle,
        "com.apple.quicktime.description": .commonKeyDescription, "com.apple.quicktime.copyright": .commonKeyCopyrights,
        "com.apple.quicktime.location.ISO6709": .commonKeyLocation, "com.apple.quicktime.creationdate": .commonKeyCreationDate,
        "com.apple.quicktime.software": .commonKeySoftware, "com.apple.quicktime.make": .commonKeyMake,
        "com.apple.quicktime.model": .commonKeyModel,
    ]

    /// The QuickTime `mdta` key this item is written under, or nil for a key space a movie cannot carry.
    var quickTimeKey: String? {
        guard let id = identifier, let (space, key) = Self.split(id) else { return nil }
        if space == .quickTimeMetadata { return key }
        if space == .common { return Self.commonForQuickTime.first { $0.value.rawValue == key }?.key }
        return nil
    }
}
