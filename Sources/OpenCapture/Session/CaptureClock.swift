import Foundation

/// OpenCapture addition: where a session's captures get their date and time zone (EXIF
/// DateTimeOriginal and OffsetTime). The default reads the system clock and the local time zone;
/// a fixed clock makes files byte-identical from run to run.
public struct CaptureClock: Sendable {
    /// The current date.
    public var now: @Sendable () -> Date
    /// The time zone dates are recorded in.
    public var timeZone: TimeZone

    public init(timeZone: TimeZone, now: @escaping @Sendable () -> Date) {
        self.now = now
        self.timeZone = timeZone
    }

    /// The system clock in the current time zone.
    public static var system: CaptureClock { CaptureClock(timeZone: .current) { Date() } }

    /// Always `date`, recorded in `timeZone` (UTC by default).
    public static func fixed(_ date: Date, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!) -> CaptureClock {
        CaptureClock(timeZone: timeZone) { date }
    }

    /// The date now and its offset from UTC in seconds.
    func read() -> (date: Date, offsetSeconds: Int) {
        let date = now()
        return (date, timeZone.secondsFromGMT(for: date))
    }
}
