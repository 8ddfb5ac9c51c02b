import CameraSimulation
import CaptureCore

/// One frame of a running session's stream: developed video pixels and when and how they were exposed.
package struct StreamFrame: Sendable {
    /// Position in the stream, from 0 at `startRunning`.
    package var index: Int
    /// Start of the exposure on the session clock, seconds.
    package var time: Double
    /// The frame's slot on the stream: one frame interval (1 / frame rate), seconds.
    package var duration: Double
    /// The developed frame: bi-planar 4:2:0 video-range YCbCr (`420v`) at the stream's size.
    package var pixelBuffer: PixelBuffer
    /// The same frame in each other pixel format the stream was configured for (`420f`, `BGRA`).
    package var otherFormats: [FourCC: PixelBuffer] = [:]

    /// The frame in `format`, if the stream makes it.
    package func buffer(_ format: FourCC) -> PixelBuffer? {
        format == pixelBuffer.pixelFormat ? pixelBuffer : otherFormats[format]
    }
    /// The exposure the sensor made.
    package var exposure: SensorExposure
    /// The sensor readout behind the frame, only while something measures depth from it (not kept in the history).
    package var raw: RawImage?
}
