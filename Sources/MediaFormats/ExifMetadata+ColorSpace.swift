import CaptureCore

extension ExifMetadata {
    /// EXIF ColorSpace for pixels in `space`: 1 for sRGB, 0xFFFF (uncalibrated) for Display P3, as
    /// iPhones write (the ICC profile then says which space).
    public static func colorSpaceTag(for space: ColorSpace) -> UInt16 {
        space == .sRGB ? 1 : 0xFFFF
    }
}
