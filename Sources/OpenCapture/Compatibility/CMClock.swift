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
