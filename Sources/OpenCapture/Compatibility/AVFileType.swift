/// A file format, named by its uniform type identifier (AVMediaFormat.h `AVFileType`).
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// JPEG ("public.jpeg").
    public static let jpg = AVFileType(rawValue: "public.jpeg")
    /// HEIC, HEIF with HEVC images ("public.heic").
    public static let heic = AVFileType(rawValue: "public.heic")
    /// HEIF ("public.heif").
    public static let heif = AVFileType(rawValue: "public.heif")
    /// Adobe Digital Negative ("com.adobe.raw-image").
    public static let dng = AVFileType(rawValue: "com.adobe.raw-image")
    /// TIFF ("public.tiff").
    public static let tif = AVFileType(rawValue: "public.tiff")
    /// QuickTime movie ("com.apple.quicktime-movie").
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    /// MPEG-4 ("public.mpeg-4").
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// AVC intra-coded image sequence ("public.avci").
    public static let avci = AVFileType(rawValue: "public.avci")
}
