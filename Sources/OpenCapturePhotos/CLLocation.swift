import Foundation

/// Metres (CoreLocation's `CLLocationAccuracy`); negative: unknown.
public typealias CLLocationAccuracy = Double

/// A place on Earth (CoreLocation's `CLLocation`; OpenCapture's stand-in with the members photo
/// code uses — coordinate, altitude, accuracies, timestamp — where CoreLocation does not exist). The photo library
/// keeps an asset's coordinate and altitude; a fetched asset's location has horizontal accuracy 0 and vertical
/// accuracy −1 (unknown), as `init(latitude:longitude:)` gives.
public final class CLLocation: Sendable {
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level.
    public let altitude: Double
    /// Radius of uncertainty of `coordinate`, metres (negative: the coordinate is invalid).
    public let horizontalAccuracy: CLLocationAccuracy
    /// Uncertainty of `altitude`, metres (negative: the altitude is unknown).
    public let verticalAccuracy: CLLocationAccuracy
    public let timestamp: Date

    /// A place at sea level, timestamped now (horizontal accuracy 0, vertical −1, as Apple's).
    public init(latitude: Double, longitude: Double) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        altitude = 0
        horizontalAccuracy = 0
        verticalAccuracy = -1
        timestamp = Date()
    }

    /// Apple's full initialiser.
    public init(coordinate: CLLocationCoordinate2D, altitude: Double, horizontalAccuracy: CLLocationAccuracy,
                verticalAccuracy: CLLocationAccuracy, timestamp: Date) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.timestamp = timestamp
    }

    /// OpenCapture addition: a place with a known altitude (horizontal accuracy 0, vertical −1).
    public init(coordinate: CLLocationCoordinate2D, altitude: Double, timestamp: Date = Date()) {
        self.coordinate = coordinate
        self.altitude = altitude
        horizontalAccuracy = 0
        verticalAccuracy = -1
        self.timestamp = timestamp
    }
}
