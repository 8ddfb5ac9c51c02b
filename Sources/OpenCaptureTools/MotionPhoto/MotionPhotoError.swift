import CaptureCore

/// Why a Motion Photo could not be made (OpenCapture addition).
public struct MotionPhotoError: DescribedError, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
