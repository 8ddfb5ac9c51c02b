/// The file a `RawDeveloper` writes (OpenCapture addition).
public enum DevelopedFileFormat: String, Sendable, CaseIterable {
    /// Baseline JPEG with EXIF and an sRGB ICC profile.
    case jpeg
    /// 8-bit RGB PNG with the raw file's EXIF (orientation included) in an `eXIf` chunk.
    case png
    /// Uncompressed 8-bit RGB TIFF.
    case tiff
    /// Uncompressed 16-bit RGB TIFF: the same rendering without 8-bit quantisation.
    case tiff16

    /// The usual file-name extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .tiff, .tiff16: return "tif"
        }
    }
}
