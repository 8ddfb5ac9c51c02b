import Foundation

/// What the engine reports for one request, in order: `resolved`, `exposureStarted`,
/// `exposureFinished`, one `photo` per expected photo, for a Live Photo `livePhotoRecorded` then
/// `livePhotoMovie`, and `finished`. The Apple surface turns these
/// into delegate callbacks; other consumers (a movie writer, a library) can listen the same way.
package enum CaptureEvent: Sendable {
    /// The request was planned against the scene; capture begins.
    case resolved(ResolvedCapture)
    /// The shutter: the first exposure starts.
    case exposureStarted
    /// Every exposure of the request is on the sensor's side.
    case exposureFinished
    /// A photo is developed and encoded; `error` is set when it failed (the photo then carries no data).
    case photo(CapturedPhoto, error: (any Error)?)
    /// A Live Photo's movie media is all captured (the post-roll ended); the file is not written yet.
    case livePhotoRecorded(url: URL)
    /// A Live Photo's movie file is complete (or failed: `movie.error`).
    case livePhotoMovie(LivePhotoMovie)
    /// The request is complete, with the first error of its photos.
    case finished(error: (any Error)?)
}
