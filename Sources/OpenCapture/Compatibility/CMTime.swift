/// Numerator of a `CMTime` (CMTime.h).
public typealias CMTimeValue = Int64
/// Denominator of a `CMTime`: units per second (CMTime.h).
public typealias CMTimeScale = Int32
/// Epoch of a `CMTime`, distinguishing otherwise equal times, e.g. loop iterations (CMTime.h).
public typealias CMTimeEpoch = Int64

/// A rational time, `value / timescale` seconds, with flags for validity, rounding, infinities
/// and indefinite times, and an epoch (CMTime.h `CMTime` with its Swift overlay).
/// Equality, ordering and hashing are by time value (1/2 == 2/4), as `CMTimeCompare` defines.
public struct CMTime: Sendable {
    public var value: CMTimeValue
    public var timescale: CMTimeScale
    public var flags: CMTimeFlags
    public var epoch: CMTimeEpoch

    /// All-zero time, which is invalid (no `.valid` flag), as for Apple's C struct.
    public init() {
        value = 0; timescale = 0; flags = []; epoch = 0
    }

    /// Stores the fields as given.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// A valid time of `value / timescale` seconds (same as `CMTimeMake`).
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self = CMTimeMake(value: value, timescale: timescale)
    }

    /// The time nearest to `seconds` in `preferredTimescale` (same as `CMTimeMakeWithSeconds`).
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        self = CMTimeMakeWithSeconds(seconds, preferredTimescale: preferredTimescale)
    }

    /// 0 seconds (0/1).
    public static let zero = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 0)
    /// The invalid time (all fields zero).
    public static let invalid = CMTime()
    /// An unknown time.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// +∞.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// −∞.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    /// Whether the `.valid` flag is set.
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether this is a valid +∞.
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    /// Whether this is a valid −∞.
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Whether this is a valid indefinite time.
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Whether this is valid and neither infinite nor indefinite.
    public var isNumeric: Bool { flags.intersection([.valid, .impliedValueFlagsMask]) == .valid }
    /// Whether this is numeric and was rounded.
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }
    /// The time in seconds (same as `CMTimeGetSeconds`): NaN for invalid or indefinite times,
    /// ±infinity for infinite ones.
    public var seconds: Double { CMTimeGetSeconds(self) }

    /// The time in another timescale (same as `CMTimeConvertScale`).
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        CMTimeConvertScale(self, timescale: newTimescale, method: method)
    }

    /// Sum (`CMTimeAdd`).
    public static func + (addend1: CMTime, addend2: CMTime) -> CMTime { CMTimeAdd(addend1, addend2) }
    /// Difference (`CMTimeSubtract`).
    public static func - (minuend: CMTime, subtrahend: CMTime) -> CMTime { CMTimeSubtract(minuend, subtrahend) }
    /// Product with an integer (`CMTimeMultiply`).
    public static func * (time: CMTime, multiplier: Int32) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
    /// Product with an integer (`CMTimeMultiply`).
    public static func * (multiplier: Int32, time: CMTime) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
    /// Product with a float (`CMTimeMultiplyByFloat64`).
    public static func * (time: CMTime, multiplier: Float64) -> CMTime { CMTimeMultiplyByFloat64(time, multiplier: multiplier) }
    /// Product with a float (`CMTimeMultiplyByFloat64`).
    public static func * (multiplier: Float64, time: CMTime) -> CMTime { CMTimeMultiplyByFloat64(time, multiplier: multiplier) }
    public static func += (time: inout CMTime, addend: CMTime) { time = time + addend }
    public static func -= (minuend: inout CMTime, subtrahend: CMTime) { minuend = minuend - subtrahend }
    public static func *= (time: inout CMTime, multiplier: Int32) { time = time * multiplier }
    public static func *= (time: inout CMTime, multiplier: Float64) { time = time * multiplier }
}

extension CMTime: Comparable, Hashable {
    public static func == (time1: CMTime, time2: CMTime) -> Bool { CMTimeCompare(time1, time2) == 0 }
    public static func < (time1: CMTime, time2: CMTime) -> Bool { CMTimeCompare(time1, time2) < 0 }

    /// Hashes the kind of time and, for numeric times, the epoch and the reduced fraction, so
    /// equal times (1/2 and 2/4) hash alike.
    public func hash(into hasher: inout Hasher) {
        let kind = CMTimeArithmetic.kind(self)
        hasher.combine(kind)
        guard kind == .numeric else { return }
        hasher.combine(epoch)
        let g = CMTimeArithmetic.gcd(value.magnitude, UInt64(timescale))
        hasher.combine(value / Int64(g))
        hasher.combine(Int64(timescale) / Int64(g))
    }
}

extension CMTime: CustomStringConvertible {
    /// E.g. "CMTime(900/600 = 1.5s)", "CMTime(+inf)", "CMTime(invalid)".
    public var description: String {
        switch CMTimeArithmetic.kind(self) {
        case .invalid: return "CMTime(invalid)"
        case .indefinite: return "CMTime(indefinite)"
        case .positiveInfinity: return "CMTime(+inf)"
        case .negativeInfinity: return "CMTime(-inf)"
        case .numeric:
            let epochText = epoch == 0 ? "" : ", epoch \(epoch)"
            return "CMTime(\(value)/\(timescale) = \(seconds)s\(hasBeenRounded ? ", rounded" : "")\(epochText))"
        }
    }
}
