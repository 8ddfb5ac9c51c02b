import CaptureCore
import Foundation

/// CoreMedia's sample buffer: one video frame (an image buffer) with
/// its presentation time, duration and format (Apple's `CMSampleBuffer`). Apple's is a CF type
/// read through the `CMSampleBufferGet…` functions (and, from iOS 13, properties of the Swift
/// overlay); OpenCapture's is an immutable class with both spellings.
///
/// `@unchecked Sendable`: every stored property is an immutable `let` (the pixel buffer has its own lock).
public final class CMSampleBuffer: @unchecked Sendable {
    /// The frame.
    public let imageBuffer: CVImageBuffer?
    /// When the first sample is presented (session clock for capture outputs).
    public let presentationTimeStamp: CMTime
    /// How long the buffer's samples last.
    public let duration: CMTime
    /// The media format: video dimensions and pixel format.
    public let formatDescription: CMFormatDescription?
    /// Number of samples: 1 for a video frame.
    public let numSamples: Int

    /// A video sample buffer.
    init(imageBuffer: CVImageBuffer, presentationTimeStamp: CMTime, duration: CMTime) {
        self.imageBuffer = imageBuffer
        self.presentationTimeStamp = presentationTimeStamp
        self.duration = duration
        formatDescription = CMFormatDescription(dimensions: Size(width: imageBuffer.width, height: imageBuffer.height),
                                                mediaSubType: imageBuffer.pixelFormat.rawValue)
        numSamples = 1
    }

    /// Whether the buffer's data is ready (always: OpenCapture delivers only complete buffers).
    public var dataIsReady: Bool { true }
    /// Whether the buffer is still valid (always).
    public var isValid: Bool { true }
}
