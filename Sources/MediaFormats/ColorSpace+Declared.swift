import CaptureCore
import Foundation

extension ColorSpace {
    /// The colour space an image file declares: an ICC profile whose description names P3 is Display P3, any other
    /// profile sRGB; without a profile, coding primaries (HEIF `nclx`, PNG `cICP`) 12 (P3-D65) are Display P3; else
    /// sRGB, as colour-managed readers take an untagged image. EXIF ColorSpace is not consulted: its "uncalibrated"
    /// (0xFFFF, which iPhones write beside a Display P3 profile and exiftool into any EXIF it creates) only says that
    /// the profile decides.
    public static func declared(iccDescription: String?, codingPrimaries: Int? = nil) -> ColorSpace {
        if let iccDescription { return iccDescription.range(of: "P3", options: .caseInsensitive) != nil ? .displayP3 : .sRGB }
        return codingPrimaries == 12 ? .displayP3 : .sRGB
    }

    /// The same from the profile's bytes (a profile without a readable description counts as sRGB).
    public static func declared(iccProfile: Data?, codingPrimaries: Int? = nil) -> ColorSpace {
        guard let iccProfile else { return declared(iccDescription: nil, codingPrimaries: codingPrimaries) }
        return declared(iccDescription: ICCProfile.description(of: iccProfile) ?? "", codingPrimaries: codingPrimaries)
    }
}
