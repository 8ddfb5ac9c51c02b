import Foundation

/// Why a Motion Photo could not be made (OpenCapture addition).
public struct MotionPhotoError: LocalizedError, CustomStringConvertible, Equatable, Sendable {
    /// The description, so `localizedDescription` (what an alert shows) says what went wrong.
    public var errorDescription: String? { description }

    public let description: String
    public init(_ description: String) { self.description = description }
}
