import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats

/// A Live Photo's movie as requested: where it goes, how it is encoded, what pairs it with the still,
/// and the stream it is cut from around the still's moment.
package struct LivePhotoDelivery: Sendable {
    package var url: URL
    package var codec: MovieCodec
    /// The UUID shared by the still's MakerNote and the movie's metadata.
    package var contentIdentifier: String
    /// Other movie metadata (`mdta` key → value), e.g. from `livePhotoMovieMetadata`.
    package var metadata: [LivePhotoMetadataItem]
    /// The running stream.
    package var stream: FrameStream
    /// The still's moment on the session clock (its exposure starts here).
    package var stillTime: Double
    /// When Live Photo capture was suspended, if it is: the movie ends there (read while recording).
    package var suspension: @Sendable () -> Double?
    /// What the microphone hears, when the session has one (the movie then has an AAC track).
    package var sound: RoomSound?
    /// Seconds kept before and recorded after the still.
    package var preRoll: Double = 1.5
    package var postRoll: Double = 1.5
    /// Whether the movie is cut where the phone swings (raised before the still, lowered after it), as the
    /// gyroscope reads it.
    package var autoTrims = false
    /// Clockwise degrees players turn the movie (the photo connection's rotation, which the still records as its
    /// EXIF orientation), written as the track's display matrix.
    package var rotation = 0
    /// Whether the movie is mirrored as the still is (the photo connection's mirroring, a front camera's by default).
    package var mirrored = false
    /// The still's capture date: the movie's creation time (nil leaves it 0, 1904).
    package var creationDate: Date?

    package init(url: URL, codec: MovieCodec, contentIdentifier: String, metadata: [LivePhotoMetadataItem], stream: FrameStream,
                 stillTime: Double, sound: RoomSound? = nil, suspension: @escaping @Sendable () -> Double?) {
        self.sound = sound
        self.url = url
        self.codec = codec
        self.contentIdentifier = contentIdentifier
        self.metadata = metadata
        self.stream = stream
        self.stillTime = stillTime
        self.suspension = suspension
    }
}

/// One movie-level metadata entry of a Live Photo movie: a QuickTime `mdta` key and its text value.
package struct LivePhotoMetadataItem: Sendable, Equatable {
    package var key: String
    package var value: String
    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// The finished Live Photo movie as the delegate hears of it.
package struct LivePhotoMovie: Sendable {
    package var url: URL
    /// Movie length, seconds.
    package var duration: Double
    /// Where in the movie the still's moment is, seconds.
    package var photoDisplayTime: Double
    /// Why the movie could not be written (nothing is left at `url` then).
    package var error: (any Error)?
}
