import CaptureCore
import MediaFormats

/// The tools' one rule for the EXIF of a derived photo (developed, fused, tone-mapped). The ColorSpace
/// mapping itself lives with `ExifMetadata` in MediaFormats.
extension ExifMetadata {
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
