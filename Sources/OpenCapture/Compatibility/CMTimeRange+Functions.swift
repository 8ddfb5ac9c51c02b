// Free functions and constants from CMTimeRange.h.

/// The zero range.
public let kCMTimeRangeZero: CMTimeRange = .zero
/// The invalid range.
public let kCMTimeRangeInvalid: CMTimeRange = .invalid

/// A range from a start and a duration.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// The range from `start` up to `end`.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, end: end)
}

/// `start + duration`; invalid for an invalid range.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime {
    guard range.isValid else { return .invalid }
    return range.start + range.duration
}

/// Whether `time` is in `start ..< end`; false for invalid ranges or times.
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool {
    guard range.isValid, time.isValid else { return false }
    return CMTimeCompare(range.start, time) <= 0 && CMTimeCompare(time, range.end) < 0
}

/// Whether `otherRange` lies inside `range` (an empty range at the end is inside).
public func CMTimeRangeContainsTimeRange(_ range: CMTimeRange, otherRange: CMTimeRange) -> Bool {
    guard range.isValid, otherRange.isValid else { return false }
    return CMTimeCompare(range.start, otherRange.start) <= 0 && CMTimeCompare(otherRange.end, range.end) <= 0
}

/// Whether both ranges have equal starts and durations.
public func CMTimeRangeEqual(_ range1: CMTimeRange, _ range2: CMTimeRange) -> Bool {
    CMTimeCompare(range1.start, range2.start) == 0 && CMTimeCompare(range1.duration, range2.duration) == 0
}

/// The smallest range containing both.
public func CMTimeRangeGetUnion(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    return CMTimeRange(start: CMTimeMinimum(range.start, otherRange.start),
                       end: CMTimeMaximum(range.end, otherRange.end))
}

/// The overlap of both ranges; a zero-length range at the later start if they do not overlap.
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    let start = CMTimeMaximum(range.start, otherRange.start)
    let end = CMTimeMinimum(range.end, otherRange.end)
    if CMTimeCompare(end, start) <= 0 { return CMTimeRange(start: start, duration: .zero) }
    return CMTimeRange(start: start, end: end)
}
