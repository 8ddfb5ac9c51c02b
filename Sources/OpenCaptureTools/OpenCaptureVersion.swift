/// The library's version, written into EXIF Software by the tools.
public enum OpenCaptureVersion {
    public static let string = "0.1"
}
