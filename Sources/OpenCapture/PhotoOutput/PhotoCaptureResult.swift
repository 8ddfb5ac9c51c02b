/// OpenCapture addition: everything one request delivered, from `AVCapturePhotoOutput.capturePhotos(with:)`.
///
/// `@unchecked Sendable`: every stored property is an immutable `let` of immutable values.
public struct PhotoCaptureResult: @unchecked Sendable {
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// The photos in delivery order (`photoCount` 1…expectedPhotoCount).
    public let photos: [AVCapturePhoto]
    /// Every delegate callback with its time.
    public let events: [PhotoCaptureEvent]
}
