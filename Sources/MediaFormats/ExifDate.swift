import Foundation

/// EXIF date strings ("YYYY:MM:DD HH:MM:SS", "+HH:MM", milliseconds) for a moment in a zone.
public struct ExifDate: Sendable {
    struct Components: Sendable { var year, month, day, hour, minute, second, millisecond: Int }

    let components: Components
    let offsetSeconds: Int

    /// 0000-01-01 and 9999-12-31 23:59:59 UTC, seconds since 1970.
    static let earliest: Double = -62_167_219_200, latest: Double = 253_402_300_799

    /// `date` in the zone `offsetSeconds` east of UTC (at most a day either way). Local times outside the years
    /// 0…9999, which no EXIF or QuickTime date string can hold, are taken at those bounds (an undefined date at 1970).
    public init(date: Date, offsetSeconds: Int) {
        self.offsetSeconds = min(max(offsetSeconds, -86_400), 86_400)
        // Whole milliseconds since the epoch in local time, then civil-from-days (no Calendar,
        // no locale, no shared formatter state).
        let local = date.timeIntervalSince1970 + Double(self.offsetSeconds)
        let localMs = local.isNaN ? 0 : Int64((min(max(local, Self.earliest), Self.latest) * 1000).rounded(.down))
        var days = localMs >= 0 ? localMs / 86_400_000 : (localMs - 86_399_999) / 86_400_000
        let msOfDay = localMs - days * 86_400_000
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        components = Components(year: Int(year), month: Int(month), day: Int(day),
                                hour: Int(msOfDay / 3_600_000), minute: Int(msOfDay / 60_000 % 60),
                                second: Int(msOfDay / 1000 % 60), millisecond: Int(msOfDay % 1000))
    }

    /// "YYYY:MM:DD HH:MM:SS" in the local time of the offset.
    public var dateTime: String { stamp(dateSeparator: ":", timeMark: " ") }

    var subSec: String { pad(components.millisecond, 3) }

    /// "YYYY-MM-DDTHH:MM:SS±HHMM" in the local time of the offset: QuickTime's `com.apple.quicktime.creationdate`, as
    /// iPhones write it.
    public var quickTime: String { stamp(dateSeparator: "-", timeMark: "T") + offset(separator: "") }

    /// "YYYY-MM-DDTHH:MM:SS.mmm000Z": `date` in UTC, as FFmpeg takes a movie's creation time.
    static func isoUTC(_ date: Date) -> String {
        let utc = ExifDate(date: date, offsetSeconds: 0)
        return utc.stamp(dateSeparator: "-", timeMark: "T") + ".\(utc.subSec)000Z"
    }

    /// "+HH:MM".
    public var offset: String { offset(separator: ":") }

    /// The date and time of day: year, month and day joined by `dateSeparator`, then `timeMark`, then "HH:MM:SS".
    private func stamp(dateSeparator s: String, timeMark: String) -> String {
        let c = components
        return "\(pad(c.year, 4))\(s)\(pad(c.month, 2))\(s)\(pad(c.day, 2))\(timeMark)\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))"
    }

    /// "±HH" `separator` "MM".
    private func offset(separator: String) -> String {
        let a = abs(offsetSeconds) / 60
        return "\(offsetSeconds < 0 ? "-" : "+")\(pad(a / 60, 2))\(separator)\(pad(a % 60, 2))"
    }

    /// Parses "YYYY:MM:DD HH:MM:SS" (+ optional sub-seconds and "+HH:MM") back into a Date and its zone's offset. A time
    /// with no (or an unreadable) offset is a local time in `zone` — the reading machine's, as Photos and exiftool take
    /// it — and `offsetRecorded` is false.
    static func parse(_ text: String, subSec: String?, offset: String?,
                      zone: TimeZone = .current) -> (date: Date, offsetSeconds: Int, offsetRecorded: Bool)? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        // Out-of-range fields (a hostile "99999999999:99:99 …") are no date, not an overflow.
        guard parts.count == 6, (0...9999).contains(parts[0]), (1...12).contains(parts[1]), (1...31).contains(parts[2]),
              (0...24).contains(parts[3]), (0...59).contains(parts[4]), (0...60).contains(parts[5]) else { return nil }
        var (y, m) = (Int64(parts[0]), Int64(parts[1]))
        let d = Int64(parts[2])
        y -= m <= 2 ? 1 : 0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        m = m > 2 ? m - 3 : m + 9
        let doy = (153 * m + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        var seconds = Double(days * 86_400 + Int64(parts[3]) * 3600 + Int64(parts[4]) * 60 + Int64(parts[5]))
        if let subSec, let digits = Int(subSec.trimmingCharacters(in: .whitespaces)), !subSec.isEmpty, digits >= 0 {
            seconds += Double(digits) / pow(10, Double(subSec.trimmingCharacters(in: .whitespaces).count))
        }
        if let offset, offset.count >= 6 {
            let sign = offset.hasPrefix("-") ? -1 : 1
            let hm = offset.dropFirst().split(separator: ":").compactMap { Int($0) }
            if hm.count == 2, (0...23).contains(hm[0]), (0...59).contains(hm[1]) {
                let offsetSeconds = sign * (hm[0] * 3600 + hm[1] * 60)
                return (Date(timeIntervalSince1970: seconds - Double(offsetSeconds)), offsetSeconds, true)
            }
        }
        // The zone's offset at that moment: first guessed from the time read as UTC, then taken at the moment it gives
        // (right on either side of a daylight-saving change).
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
        let offsetSeconds = zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds - Double(guess)))
        return (Date(timeIntervalSince1970: seconds - Double(offsetSeconds)), offsetSeconds, false)
    }

    private func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
