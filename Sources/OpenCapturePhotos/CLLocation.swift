import Foundation

/// A place on Earth (CoreLocation's `CLLocation`; OpenCapture's stand-in with the members photo
/// code uses — coordinate, altitude, timestamp — where CoreLocation does not exist).
public final class CLLocation: Sendable {
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level.
    public let altitude: Double
    public let timestamp: Date

    public init(latitude: Double, longitude: Double) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        altitude = 0
        timestamp = Date()
    }

    public init(coordinate: CLLocationCoordinate2D, altitude: Double, timestamp: Date = Date()) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.timestamp = timestamp
    }
}
