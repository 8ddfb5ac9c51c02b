import CaptureCore
import MediaFormats

/// The tools' one rule for the EXIF of a derived photo (developed, fused, tone-mapped) and for
/// the colour space EXIF ColorSpace declares. (CaptureEngine writes the same 1 / 0xFFFF mapping
/// for captures; MediaFormats would be the home for both if it grew one.)
extension ExifMetadata {
    /// EXIF ColorSpace for pixels in `space`: 1 for sRGB, 0xFFFF (uncalibrated) for Display P3, as iPhones write.
    static func colorSpaceTag(for space: ColorSpace) -> UInt16 {
        space == .sRGB ? 1 : 0xFFFF
    }

    /// The colour space this EXIF declares: uncalibrated (0xFFFF) means Display P3, anything else sRGB.
    var declaredColorSpace: ColorSpace {
        colorSpace == 0xFFFF ? .displayP3 : .sRGB
    }

    /// This source EXIF for a new file made from it by `tool` ("fusion", "raw developer"): the
    /// capture details kept, `orientation` and `colorSpace` those of the new pixels, Software
    /// OpenCapture; pixel dimensions left to the new file.
    func derived(by tool: String, orientation: Int, colorSpace: ColorSpace) -> ExifMetadata {
        var exif = self
        exif.orientation = orientation
        exif.software = "OpenCapture \(OpenCaptureVersion.string) \(tool)"
        exif.pixelXDimension = nil
        exif.pixelYDimension = nil
        exif.colorSpace = Self.colorSpaceTag(for: colorSpace)
        return exif
    }
}
