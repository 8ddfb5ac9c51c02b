import CaptureCore

/// What a request resolved to against the scene, before capture starts (the native form of
/// Apple's `AVCaptureResolvedPhotoSettings`).
package struct ResolvedCapture: Sendable, Equatable {
    package var id: Int64
    package var photoSize: Size?
    package var rawPhotoSize: Size?
    package var previewSize: Size?
    package var thumbnailSize: Size?
    package var rawThumbnailSize: Size?
    package var flash: Bool
    package var redEyeReduction: Bool
    package var stillImageStabilization: Bool
    /// Size of the delivered depth map; nil without depth.
    package var depthSize: Size?
    /// Size of the delivered portrait effects matte; nil without one.
    package var matteSize: Size?
    package var expectedPhotoCount: Int
    /// Expected processing time in seconds.
    package var processingTime: ClosedRange<Double>
    /// Frame size of the Live Photo movie; nil without one.
    package var livePhotoMovieSize: Size? = nil
}
