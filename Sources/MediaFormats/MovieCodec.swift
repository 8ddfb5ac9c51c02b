/// Video codecs OpenCapture writes movies with.
public enum MovieCodec: String, Sendable, CaseIterable {
    /// H.264 / AVC through libx264.
    case h264
    /// H.265 / HEVC through libx265 (tagged `hvc1`, as Apple writes it).
    case hevc

    /// FFmpeg's encoder name.
    var encoderName: String { self == .h264 ? "libx264" : "libx265" }
}
