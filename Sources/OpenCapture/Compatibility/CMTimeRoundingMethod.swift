/// How `CMTime` conversions and arithmetic round a value that cannot be represented exactly
/// (CMTime.h `CMTimeRoundingMethod`).
public enum CMTimeRoundingMethod: UInt32, Sendable {
    /// Round to the nearest value; halves go away from zero.
    case roundHalfAwayFromZero = 1
    /// Truncate toward zero.
    case roundTowardZero = 2
    /// Round away from zero.
    case roundAwayFromZero = 3
    /// Toward zero when converting to a coarser timescale, away from zero to a finer one;
    /// never rounds a negative time to zero.
    case quickTime = 4
    /// Round toward +∞ (ceiling).
    case roundTowardPositiveInfinity = 5
    /// Round toward −∞ (floor).
    case roundTowardNegativeInfinity = 6

    /// The default method, `.roundHalfAwayFromZero`.
    public static let `default`: CMTimeRoundingMethod = .roundHalfAwayFromZero
}
