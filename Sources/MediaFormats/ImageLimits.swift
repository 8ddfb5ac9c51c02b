/// The largest images the readers accept, checked against header-declared dimensions before any
/// pixel buffer is allocated, so a tiny hostile file cannot demand gigabytes.
public enum ImageLimits {
    /// At most 2^28 pixels (268 megapixels, e.g. 16384×16384): an RGBA float buffer of that size is 4 GiB.
    public static let maxPixels = 1 << 28
    /// At most 2^20 pixels on a side.
    public static let maxSide = 1 << 20

    /// Throws `.unsupported` when a `width`×`height` image would exceed the limits, `.invalidImage`
    /// when a dimension is zero or negative. Returns the pixel count.
    @discardableResult
    public static func check(width: Int, height: Int, format: String) throws -> Int {
        guard width > 0, height > 0 else { throw MediaFormatError.invalidImage("\(format) declares a \(width)×\(height) image") }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, width <= maxSide, height <= maxSide, count <= maxPixels else {
            throw MediaFormatError.unsupported("\(format) of \(width)×\(height) is too large (limit \(maxPixels) pixels)")
        }
        return count
    }
}
