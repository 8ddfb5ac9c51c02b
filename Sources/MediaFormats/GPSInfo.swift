import Foundation

/// Location written to the EXIF GPS IFD.
public struct GPSInfo: Sendable, Equatable {
    /// Degrees, north positive.
    public var latitude: Double
    /// Degrees, east positive.
    public var longitude: Double
    /// Metres above sea level (negative below).
    public var altitude: Double?
    /// Fix time; written as GPSDateStamp + GPSTimeStamp in UTC.
    public var timestamp: Date?
    /// Ground speed (GPSSpeed), in the unit `speedReference` names.
    public var speed: Double?
    /// GPSSpeedRef: "K" km/h, "M" miles per hour, "N" knots.
    public var speedReference = "K"
    /// Direction the camera faced, degrees clockwise from north (GPSImgDirection).
    public var imageDirection: Double?
    /// GPSImgDirectionRef: "T" true north, "M" magnetic north.
    public var imageDirectionReference = "T"
    /// Horizontal positioning error in metres (GPSHPositioningError).
    public var horizontalError: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, timestamp: Date? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.timestamp = timestamp
    }

    /// The fix time a GPSDateStamp ("2026:03:01") and a GPSTimeStamp (hours, minutes, seconds, UTC) give; nil when the
    /// day is no date or the time is out of range.
    package static func time(dateStamp: String, hours: Double, minutes: Double, seconds: Double) -> Date? {
        guard (0..<24).contains(hours), (0..<60).contains(minutes), (0..<61).contains(seconds),
              let (midnight, _, _) = ExifDate.parse(dateStamp + " 00:00:00", subSec: nil, offset: "+00:00") else { return nil }
        return midnight.addingTimeInterval(hours * 3600 + minutes * 60 + seconds)
    }
}
