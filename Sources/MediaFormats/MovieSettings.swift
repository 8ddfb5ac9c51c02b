import CaptureCore
import Foundation

/// What a movie is written with: codec, frame size and rate, quality, audio and movie-level metadata.
public struct MovieSettings: Sendable {
    public var codec: MovieCodec
    /// Frame size (even sides).
    public var width: Int
    public var height: Int
    /// Nominal frames per second (rate control and key-frame spacing; frame times set the real timing).
    public var frameRate: Int
    /// The video track's timescale (units per second of frame times; Apple uses 600).
    public var timescale: Int = 600
    /// Constant rate factor (x264/x265; lower is better quality).
    public var crf: Int = 23
    /// Encoder speed preset (x264/x265 names).
    public var preset: String = "veryfast"
    /// Encoder threads (0 = FFmpeg decides).
    public var threads: Int = 0
    /// Audio track: sample rate and channel count of the 16-bit PCM given to `appendAudio`; nil = no audio.
    public var audio: (sampleRate: Int, channels: Int)?
    /// Movie-level metadata written as QuickTime `mdta` keys (e.g. `com.apple.quicktime.make`).
    public var metadata: [(key: String, value: String)] = []
    /// When the movie was made, written as the movie's, tracks' and media's creation and modification times (nil
    /// leaves them 0, 1904-01-01).
    public var creationDate: Date?
    /// Whether frames are full-range (`420f`) rather than video-range (`420v`, the default, as iPhones record).
    public var fullRange = false
    /// Colour space the frames are in (written as the track's colour description).
    public var colorSpace: ColorSpace = .sRGB
    /// The Y′CbCr matrix the frames are converted with, written as the track's colour description (what players
    /// decode with): set from the frame size by `YCbCrMatrix.video` (BT.709 for HD), the matrix the stream's frames
    /// are in. `MovieWriter.append` refuses a frame whose attachment names another.
    public var yCbCrMatrix: YCbCrMatrix
    /// Clockwise degrees players turn the frames (0, 90, 180 or 270), written as the video track's display matrix:
    /// 90 for a phone held upright, whose sensor reads out landscape.
    public var rotation = 0
    /// Whether the movie shows its frames mirrored about the displayed picture's vertical axis (a front camera's
    /// mirrored connection, as the still records it in its EXIF orientation): the frames are mirrored before encoding
    /// (left to right, or top to bottom where `rotation` turns them a quarter), so every player shows it.
    public var mirrored = false

    public init(codec: MovieCodec, width: Int, height: Int, frameRate: Int) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        yCbCrMatrix = .video(width: width, height: height)
    }
}
