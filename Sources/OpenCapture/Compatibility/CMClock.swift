import Foundation

/// A CoreMedia clock (Apple's `CMClock`): the host clock, or a capture session's synchronisation clock,
/// in which photo timestamps and sample-buffer presentation times are expressed.
///
/// `@unchecked Sendable`: its only stored property is an immutable `let`.
public final class CMClock: @unchecked Sendable {
    /// Uptime (ns) that reads as time zero.
    let origin: UInt64

    init(origin: UInt64) { self.origin = origin }

    /// The clock's current time.
    public var time: CMTime {
        CMTime(value: CMTimeValue(DispatchTime.now().uptimeNanoseconds &- origin), timescale: 1_000_000_000)
    }
}

/// The host clock (`mach_absolute_time` on Apple platforms; uptime here).
public func CMClockGetHostTimeClock() -> CMClock { CMClock(origin: 0) }

/// The clock's current time.
public func CMClockGetTime(_ clock: CMClock) -> CMTime { clock.time }

/// `time` on `fromClock` as the same instant on `toClock` (Apple's `CMSyncConvertTime`, for clocks): how a device
/// completion handler's host-clock time becomes comparable with sample buffers on the session's `synchronizationClock`.
public func CMSyncConvertTime(_ time: CMTime, from fromClock: CMClock, to toClock: CMClock) -> CMTime {
    let shift = Int64(bitPattern: fromClock.origin &- toClock.origin)   // nanoseconds toClock runs behind fromClock
    return CMTimeAdd(time, CMTime(value: CMTimeValue(shift), timescale: 1_000_000_000))
}
