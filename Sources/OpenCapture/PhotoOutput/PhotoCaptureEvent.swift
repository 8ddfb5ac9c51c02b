/// OpenCapture addition: one delegate callback of a request, as recorded by
/// `AVCapturePhotoOutput.capturePhotos(with:)`.
public struct PhotoCaptureEvent: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case willBeginCapture
        case willCapturePhoto
        case didCapturePhoto
        /// With the photo's 1-based `photoCount`.
        case didFinishProcessingPhoto(photoCount: Int)
        case didFinishCapture
    }

    public let kind: Kind
    /// Seconds from the `capturePhotos` call to the callback.
    public let time: Double

    public init(kind: Kind, time: Double) {
        self.kind = kind
        self.time = time
    }

    public var description: String {
        let name: String
        switch kind {
        case .willBeginCapture: name = "willBeginCapture"
        case .willCapturePhoto: name = "willCapturePhoto"
        case .didCapturePhoto: name = "didCapturePhoto"
        case .didFinishProcessingPhoto(let n): name = "didFinishProcessingPhoto #\(n)"
        case .didFinishCapture: name = "didFinishCapture"
        }
        return String(format: "%8.1f ms  ", time * 1000) + name
    }
}
