import Foundation

/// A metadata item to fill in (Apple's `AVMutableMetadataItem`), e.g. for `livePhotoMovieMetadata`:
/// set `identifier` (or `keySpace` and `key`) and `value`.
///
/// `@unchecked Sendable`: every stored property is a `Locked` value (inherited).
public final class AVMutableMetadataItem: AVMetadataItem, @unchecked Sendable {
    public override init() { super.init() }

    public override var identifier: AVMetadataIdentifier? {
        get { super.identifier }
        set { storedIdentifier = newValue }
    }
    public override var keySpace: AVMetadataKeySpace? {
        get { super.keySpace }
        set { storedKeySpace = newValue }
    }
    public override var key: (any NSCopying & NSObjectProtocol)? {
        get { super.key }
        set { storedKey = newValue }
    }
    public override var value: (any NSCopying & NSObjectProtocol)? {
        get { super.value }
        set { storedValue = newValue }
    }
    public override var dataType: String? {
        get { super.dataType }
        set { storedDataType = newValue }
    }
    public override var extendedLanguageTag: String? {
        get { super.extendedLanguageTag }
        set { storedLanguageTag = newValue }
    }

    /// An immutable copy, as Apple's `copy()` of a mutable item gives.
    public override func copy(with zone: NSZone? = nil) -> Any { super.copy(with: zone) }
}
