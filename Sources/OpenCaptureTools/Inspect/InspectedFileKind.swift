/// What kind of image file `FileInspector` found (OpenCapture addition).
public enum InspectedFileKind: String, Sendable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    case tiff = "TIFF"
    case dng = "DNG"
    /// A camera raw format LibRaw reads (CR2, NEF, ARW, RAF, CR3, …).
    case cameraRaw = "camera raw"
    /// An ISO base-media HEIF/HEIC/AVIF still image.
    case heif = "HEIF"
}
