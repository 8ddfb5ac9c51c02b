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

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, timestamp: Date? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.timestamp = timestamp
    }
}
