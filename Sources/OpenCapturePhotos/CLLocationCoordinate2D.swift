/// A latitude and longitude in degrees (CoreLocation's `CLLocationCoordinate2D`; OpenCapture's
/// stand-in where CoreLocation does not exist).
public struct CLLocationCoordinate2D: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public init() { (latitude, longitude) = (0, 0) }
    public init(latitude: Double, longitude: Double) { (self.latitude, self.longitude) = (latitude, longitude) }
}
