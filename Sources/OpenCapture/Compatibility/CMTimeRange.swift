/// A span of time: a start and a duration (CMTimeRange.h `CMTimeRange` with its Swift overlay).
public struct CMTimeRange: Sendable {
    /// First time in the range.
    public var start: CMTime
    /// Length of the range.
    public var duration: CMTime

    /// An all-zero, invalid range, as for Apple's C struct.
    public init() {
        start = CMTime()
        duration = CMTime()
    }

    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// The range from `start` up to (not including) `end` (`CMTimeRangeFromTimeToTime`).
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: end - start)
    }

    /// 0 s long, starting at 0 s.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// The invalid range.
    public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)

    /// Whether start and duration are valid, the duration's epoch is 0 and it is not negative.
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && duration.value >= 0
    }
    /// Whether the range is valid and its start or duration is indefinite.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }
    /// Whether the range is valid with a zero duration.
    public var isEmpty: Bool { isValid && duration == .zero }
    /// The first time after the range, `start + duration` (`CMTimeRangeGetEnd`).
    public var end: CMTime { CMTimeRangeGetEnd(self) }

    /// Whether `time` lies in `start ..< end` (`CMTimeRangeContainsTime`).
    public func containsTime(_ time: CMTime) -> Bool { CMTimeRangeContainsTime(self, time: time) }
    /// Whether `range` lies entirely inside this range (`CMTimeRangeContainsTimeRange`).
    public func containsTimeRange(_ range: CMTimeRange) -> Bool { CMTimeRangeContainsTimeRange(self, otherRange: range) }
    /// The smallest range covering both (`CMTimeRangeGetUnion`).
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange { CMTimeRangeGetUnion(self, otherRange: otherRange) }
    /// The overlap of both, empty if none (`CMTimeRangeGetIntersection`).
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange { CMTimeRangeGetIntersection(self, otherRange: otherRange) }
}

extension CMTimeRange: Equatable {
    /// Start and duration compare equal by `CMTimeCompare` (`CMTimeRangeEqual`).
    public static func == (range1: CMTimeRange, range2: CMTimeRange) -> Bool { CMTimeRangeEqual(range1, range2) }
}
