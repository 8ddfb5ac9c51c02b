/// A video or still-image codec identifier used in output settings and photo settings
/// (AVVideoSettings.h `AVVideoCodecType`).
public struct AVVideoCodecType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// JPEG ("jpeg").
    public static let jpeg = AVVideoCodecType(rawValue: "jpeg")
    /// HEVC / H.265 ("hvc1").
    public static let hevc = AVVideoCodecType(rawValue: "hvc1")
    /// H.264 ("avc1").
    public static let h264 = AVVideoCodecType(rawValue: "avc1")
    /// Apple ProRes 422 ("apcn").
    public static let proRes422 = AVVideoCodecType(rawValue: "apcn")
    /// Apple ProRes 4444 ("ap4h").
    public static let proRes4444 = AVVideoCodecType(rawValue: "ap4h")
    /// JPEG XL ("jxlc").
    public static let JPEGXL = AVVideoCodecType(rawValue: "jxlc")
}
