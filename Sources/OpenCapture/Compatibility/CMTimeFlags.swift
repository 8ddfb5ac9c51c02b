/// Flag bits of a `CMTime` (CMTime.h `CMTimeFlags`).
public struct CMTimeFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The time is valid; all other flags are meaningful only when this is set.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The value was rounded in an arithmetic or conversion operation.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// Positive infinity; value and timescale are ignored.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// Negative infinity; value and timescale are ignored.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// Indefinite (unknown) time; value and timescale are ignored.
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// The flags that make a time non-numeric: infinities and indefinite.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}
