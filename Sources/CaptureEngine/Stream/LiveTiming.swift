/// When a photo is exposed while the session's stream runs: on the live session clock (the hand shake and the
/// pendulum where they really are), either from the frame slot in progress at the call (zero shutter lag: the
/// frame was being exposed when the shutter was pressed, as a phone's ring of full-resolution frames has it)
/// or when the sensor gets to the request. Without a stream, photos keep a synthetic clock per request so the
/// same seed and settings give the same pixels.
package struct LiveTiming: Sendable {
    /// Session seconds at the call.
    package var callTime: Double
    /// Whether the photo comes from the frame in progress at the call.
    package var zeroShutterLag: Bool
    /// The stream's frame slots: the first frame's start and the interval, seconds.
    package var streamStart: Double
    package var frameInterval: Double

    package init(callTime: Double, zeroShutterLag: Bool, streamStart: Double, frameInterval: Double) {
        self.callTime = callTime
        self.zeroShutterLag = zeroShutterLag
        self.streamStart = streamStart
        self.frameInterval = frameInterval
    }

    /// Start of the frame slot in progress at `time`.
    package func slot(containing time: Double) -> Double {
        guard frameInterval > 0 else { return time }
        return streamStart + ((time - streamStart) / frameInterval).rounded(.down) * frameInterval
    }
}
