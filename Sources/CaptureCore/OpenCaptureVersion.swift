/// The library's version, written into the EXIF Software field of every file OpenCapture writes.
public enum OpenCaptureVersion {
    public static let string = "0.2"
}
