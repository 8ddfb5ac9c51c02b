/// The two weight sets that turn RGB into one luma value, kept in one place.
///
/// - `rec709`: ITU-R BT.709 / sRGB primaries, the luminance Y of linear light (tone mapping, guides for filters).
/// - `rec601`: ITU-R BT.601, the Y of JPEG's YCbCr and of the image-quality conventions (SSIM on luma, Mertens'
///   contrast measure as OpenCV and enfuse compute it).
public enum LumaWeights {
    public static let rec709 = SIMD3<Float>(0.2126, 0.7152, 0.0722)
    public static let rec601 = SIMD3<Float>(0.299, 0.587, 0.114)
}
