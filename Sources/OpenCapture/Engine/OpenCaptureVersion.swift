/// The library's version, written into EXIF Software.
enum OpenCaptureVersion {
    static let string = "0.1"
}
