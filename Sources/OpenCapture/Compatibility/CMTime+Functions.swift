// Free functions and constants from CMTime.h.

/// The largest timescale CoreMedia picks for a result (CMTime.h `kCMTimeMaxTimescale`).
public let kCMTimeMaxTimescale: Int32 = 1_000_000_000
/// 0 seconds.
public let kCMTimeZero: CMTime = .zero
/// The invalid time.
public let kCMTimeInvalid: CMTime = .invalid
/// An unknown time.
public let kCMTimeIndefinite: CMTime = .indefinite
/// +∞.
public let kCMTimePositiveInfinity: CMTime = .positiveInfinity
/// −∞.
public let kCMTimeNegativeInfinity: CMTime = .negativeInfinity

/// A valid time of `value / timescale` seconds; invalid if `timescale` is not positive.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime {
    guard timescale > 0 else { return .invalid }
    return CMTime(value: value, timescale: timescale, flags: .valid, epoch: 0)
}

/// The time nearest to `seconds` in `preferredTimescale` (halves away from zero, with
/// `.hasBeenRounded` if inexact). NaN gives invalid, ±infinity the infinite times; if the value
/// would overflow, the timescale is halved until it fits.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    if seconds.isNaN || preferredTimescale <= 0 { return .invalid }
    if seconds == .infinity { return .positiveInfinity }
    if seconds == -.infinity { return .negativeInfinity }
    var scale = preferredTimescale
    while scale > 0 {
        let exact = seconds * Double(scale)
        let rounded = exact.rounded(.toNearestOrAwayFromZero)
        if rounded.magnitude < 9.2233720368547748e18 {
            var flags: CMTimeFlags = .valid
            if rounded != exact { flags.insert(.hasBeenRounded) }
            return CMTime(value: Int64(rounded), timescale: scale, flags: flags, epoch: 0)
        }
        scale /= 2
    }
    return seconds > 0 ? .positiveInfinity : .negativeInfinity
}

/// The time in seconds: NaN for invalid or indefinite times, ±infinity for infinite ones.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 {
    switch CMTimeArithmetic.kind(time) {
    case .invalid, .indefinite: return .nan
    case .positiveInfinity: return .infinity
    case .negativeInfinity: return -.infinity
    case .numeric: return Double(time.value) / Double(time.timescale)
    }
}

/// `time` expressed in `newTimescale`, rounded with `method` (setting `.hasBeenRounded` if
/// inexact). Non-numeric times are returned unchanged; a non-positive timescale gives invalid;
/// a value that would overflow gives ±infinity.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    guard time.isNumeric, time.timescale > 0 else { return time }
    guard newTimescale > 0 else { return .invalid }
    guard let (value, rounded) = CMTimeArithmetic.rescale(time.value, from: time.timescale, to: newTimescale, method: method) else {
        return time.value < 0 ? .negativeInfinity : .positiveInfinity
    }
    var flags = time.flags
    if rounded { flags.insert(.hasBeenRounded) }
    return CMTime(value: value, timescale: newTimescale, flags: flags, epoch: time.epoch)
}

/// Sum of two times. Same timescales give an exact result in that timescale; otherwise the
/// least common multiple is used, capped at `kCMTimeMaxTimescale` (rounding, `.hasBeenRounded`).
/// On overflow the timescale is halved until the value fits. Invalid operands or different
/// epochs give invalid; +∞ + −∞ gives invalid; indefinite operands give indefinite.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    CMTimeArithmetic.add(lhs, rhs, negateRight: false)
}

/// Difference of two times, with the rules of `CMTimeAdd` (+∞ − +∞ is invalid).
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    CMTimeArithmetic.add(lhs, rhs, negateRight: true)
}

/// −1, 0 or 1 as `time1` is less than, equal to or greater than `time2`. Order:
/// −∞ < numeric < +∞ < indefinite < invalid; numeric times compare by epoch, then exactly by
/// value, so 1/2 equals 2/4.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    let k1 = CMTimeArithmetic.kind(time1), k2 = CMTimeArithmetic.kind(time2)
    if k1 != k2 { return k1.rawValue < k2.rawValue ? -1 : 1 }
    guard k1 == .numeric else { return 0 }
    if time1.epoch != time2.epoch { return time1.epoch < time2.epoch ? -1 : 1 }
    // value1 * timescale2 vs value2 * timescale1, exactly in 128 bits.
    let a = time1.value.multipliedFullWidth(by: Int64(time2.timescale))
    let b = time2.value.multipliedFullWidth(by: Int64(time1.timescale))
    if a.high != b.high { return a.high < b.high ? -1 : 1 }
    if a.low != b.low { return a.low < b.low ? -1 : 1 }
    return 0
}

/// `time` times an integer, keeping the timescale if the value fits (otherwise halving it,
/// then ±infinity). Infinite times keep or flip their sign (0 × ∞ is invalid); indefinite stays
/// indefinite.
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    CMTimeArithmetic.multiply(time, sign: Int(multiplier.signum()), exactlyBy: Int64(multiplier))
}

/// `time` times a float, in the same timescale, rounded half away from zero (with
/// `.hasBeenRounded` if inexact); the timescale is halved if the value would overflow. A NaN
/// multiplier gives invalid.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    if multiplier.isNaN { return .invalid }
    let sign = multiplier > 0 ? 1 : (multiplier < 0 ? -1 : 0)
    guard CMTimeArithmetic.kind(time) == .numeric else {
        return CMTimeArithmetic.multiply(time, sign: sign, exactlyBy: 0)
    }
    if multiplier.isInfinite {
        if time.value == 0 { return .invalid }
        return (time.value > 0) == (multiplier > 0) ? .positiveInfinity : .negativeInfinity
    }
    var scale = time.timescale
    var value = Double(time.value)
    while scale > 0 {
        let exact = value * multiplier
        let rounded = exact.rounded(.toNearestOrAwayFromZero)
        if rounded.magnitude < 9.2233720368547748e18 {
            var flags = time.flags
            if rounded != exact || scale != time.timescale { flags.insert(.hasBeenRounded) }
            return CMTime(value: Int64(rounded), timescale: scale, flags: flags, epoch: time.epoch)
        }
        scale /= 2
        value /= 2
    }
    return (time.value > 0) == (multiplier > 0) ? .positiveInfinity : .negativeInfinity
}

/// The later of two times (by `CMTimeCompare`); an invalid operand gives invalid.
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    if !time1.isValid || !time2.isValid { return .invalid }
    return CMTimeCompare(time1, time2) >= 0 ? time1 : time2
}

/// The earlier of two times (by `CMTimeCompare`); an invalid operand gives invalid.
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    if !time1.isValid || !time2.isValid { return .invalid }
    return CMTimeCompare(time1, time2) <= 0 ? time1 : time2
}

/// The absolute value of a time; −∞ becomes +∞.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    if time.isNegativeInfinity { return .positiveInfinity }
    guard time.isNumeric, time.value < 0 else { return time }
    return CMTimeMultiply(time, multiplier: -1)
}

/// Exact integer helpers behind the CMTime functions.
enum CMTimeArithmetic {
    /// Kinds of time in `CMTimeCompare` order.
    enum Kind: Int, Hashable {
        case negativeInfinity, numeric, positiveInfinity, indefinite, invalid
    }

    static func kind(_ time: CMTime) -> Kind {
        guard time.isValid else { return .invalid }
        if time.flags.contains(.indefinite) { return .indefinite }
        if time.flags.contains(.positiveInfinity) { return .positiveInfinity }
        if time.flags.contains(.negativeInfinity) { return .negativeInfinity }
        return time.timescale > 0 ? .numeric : .invalid
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    /// `value * to / from` rounded by `method`, and whether it was inexact; nil on overflow.
    static func rescale(_ value: Int64, from: Int32, to: Int32, method: CMTimeRoundingMethod) -> (Int64, Bool)? {
        if from == to { return (value, false) }
        let negative = value < 0
        let product = value.magnitude.multipliedFullWidth(by: UInt64(to))
        let divisor = UInt64(from)
        guard product.high < divisor else { return nil }
        var (q, r) = divisor.dividingFullWidth(product)
        if r != 0 {
            let up: Bool
            switch method {
            case .roundHalfAwayFromZero: up = r >= divisor - r
            case .roundTowardZero: up = false
            case .roundAwayFromZero: up = true
            case .quickTime: up = to > from || (negative && q == 0)
            case .roundTowardPositiveInfinity: up = !negative
            case .roundTowardNegativeInfinity: up = negative
            }
            if up { q += 1 }
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard q <= limit else { return nil }
        let result = negative ? (q == limit ? Int64.min : -Int64(q)) : Int64(q)
        return (result, r != 0)
    }

    static func add(_ lhs: CMTime, _ rhs: CMTime, negateRight: Bool) -> CMTime {
        let kl = kind(lhs)
        var kr = kind(rhs)
        if negateRight {
            if kr == .positiveInfinity { kr = .negativeInfinity } else if kr == .negativeInfinity { kr = .positiveInfinity }
        }
        if kl == .invalid || kr == .invalid { return .invalid }
        if kl == .indefinite || kr == .indefinite { return .indefinite }
        if kl != .numeric || kr != .numeric {
            if kl != .numeric && kr != .numeric && kl != kr { return .invalid }  // +∞ + −∞
            return (kl != .numeric ? kl : kr) == .positiveInfinity ? .positiveInfinity : .negativeInfinity
        }
        if lhs.epoch != rhs.epoch { return .invalid }
        let carried = lhs.flags.union(rhs.flags).intersection(.hasBeenRounded)

        var scale: Int32
        if lhs.timescale == rhs.timescale {
            scale = lhs.timescale
        } else {
            let l = Int64(lhs.timescale), r = Int64(rhs.timescale)
            let lcm = l / Int64(gcd(UInt64(l), UInt64(r))) * r
            scale = Int32(min(lcm, Int64(kCMTimeMaxTimescale)))
        }
        while scale > 0 {
            if let (a, ra) = rescale(lhs.value, from: lhs.timescale, to: scale, method: .default),
               let (b0, rb) = rescale(rhs.value, from: rhs.timescale, to: scale, method: .default) {
                let b: Int64?
                if negateRight {
                    let (n, o) = Int64(0).subtractingReportingOverflow(b0)
                    b = o ? nil : n
                } else {
                    b = b0
                }
                if let b {
                    let (sum, overflow) = a.addingReportingOverflow(b)
                    if !overflow {
                        var flags = CMTimeFlags.valid.union(carried)
                        if ra || rb { flags.insert(.hasBeenRounded) }
                        return CMTime(value: sum, timescale: scale, flags: flags, epoch: lhs.epoch)
                    }
                }
            }
            scale /= 2
        }
        let approx = Double(lhs.value) / Double(lhs.timescale)
            + (negateRight ? -1 : 1) * Double(rhs.value) / Double(rhs.timescale)
        return approx >= 0 ? .positiveInfinity : .negativeInfinity
    }

    /// Multiplies by an integer whose sign is `sign`; for non-numeric times only `sign` is used.
    static func multiply(_ time: CMTime, sign: Int, exactlyBy multiplier: Int64) -> CMTime {
        switch kind(time) {
        case .invalid: return .invalid
        case .indefinite: return .indefinite
        case .positiveInfinity, .negativeInfinity:
            if sign == 0 { return .invalid }
            return (time.isPositiveInfinity) == (sign > 0) ? .positiveInfinity : .negativeInfinity
        case .numeric:
            var scale = time.timescale
            while scale > 0 {
                if let (v, rounded) = rescale(time.value, from: time.timescale, to: scale, method: .default) {
                    let (product, overflow) = v.multipliedReportingOverflow(by: multiplier)
                    if !overflow {
                        var flags = time.flags
                        if rounded { flags.insert(.hasBeenRounded) }
                        return CMTime(value: product, timescale: scale, flags: flags, epoch: time.epoch)
                    }
                }
                scale /= 2
            }
            return (time.value > 0) == (multiplier > 0) ? .positiveInfinity : .negativeInfinity
        }
    }
}
