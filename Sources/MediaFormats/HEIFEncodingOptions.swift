import CaptureCore
import Foundation

/// How `HEIFEncoder` writes a HEIC file.
public struct HEIFEncodingOptions: Sendable {
    /// 0…1, like AVVideoQualityKey; mapped to an x265 constant rate factor (see
    /// `constantRateFactor`).
    public var quality: Double = 0.9
    /// x265 preset for the tiles and thumbnail ("ultrafast" … "veryslow"). "ultrafast" (with rd 1
    /// and no psy-rd) is the only one that codes a 12 MP photo in about 1.5 s on 2 cores; the
    /// slower presets are 5–9 % smaller at +0.3–0.5 dB for 4× the time (opencapture-bench).
    public var preset: String = "ultrafast"
    /// Width and height of the HEVC tiles of the primary `grid` image (iPhones use 512).
    /// Smaller images use one tile rounded up to a multiple of 64. 64…4096, a multiple of 64.
    public var tileSize: Int = 512
    /// Colour space of the pixels: written as a `colr` ICC profile (`ICCProfile.data(for:)`)
    /// and a `colr` nclx (primaries 1 sRGB or 12 P3-D65, transfer 13, matrix 6, full range).
    public var colorSpace: ColorSpace = .sRGB
    /// Exif metadata, written as an `Exif` item. Its orientation is replaced by `orientation`
    /// and missing PixelX/YDimension are set to the image size.
    public var exif: ExifMetadata? = nil
    /// An XMP packet, written as a `mime` item of type application/rdf+xml.
    public var xmp: Data? = nil
    /// EXIF orientation 1…8 of the stored pixels. Like an iPhone, the pixels stay as given; the
    /// file carries `irot`/`imir` (applied by HEIF readers) and the same value as EXIF
    /// Orientation (which HEIF readers must then ignore).
    public var orientation: Int = 1
    /// Longer side of the HEVC thumbnail item (`thmb`), or nil for none. iPhones use 320.
    public var thumbnailMaxDimension: Int? = 320
    /// A depth or disparity map, written as an iPhone does: a hidden monochrome (4:0:0) `hvc1`
    /// auxiliary item at the map's own size with `auxC` urn:mpeg:hevc:2015:auxid:2 (plus the depth
    /// representation SEI libheif reads d-min/d-max from), an `auxl` reference to the primary image,
    /// and Apple's depth XMP in a `mime` item linked to it by `cdsc`. Coded lossless, so the only
    /// error is the 8-bit quantisation. Width and height must be even and at least 16.
    public var depth: DepthAuxiliaryImage? = nil
    /// A portrait effects matte, written like `depth` with `auxC`
    /// urn:com:apple:photo:2018:aux:portraiteffectsmatte and Apple's matte XMP.
    public var portraitMatte: MatteAuxiliaryImage? = nil

    public init() {}

    /// The x265 constant rate factor `quality` maps to: piecewise linear through (0, 44),
    /// (0.9, 26), (1, 16). At 0.9 a 12 MP photo is about two thirds of a quality-90 JPEG at the
    /// same PSNR (2.49 vs 3.72 MB, 37.3 vs 37.4 dB). libheif maps its quality q to crf (100 − q) / 2,
    /// so `heif-enc -q` 100 − 2 × this value codes at the same rate factor.
    public var constantRateFactor: Double {
        let q = min(1, max(0, quality))
        let points: [(Double, Double)] = [(0, 44), (0.9, 26), (1, 16)]
        for k in 1..<points.count where q <= points[k].0 {
            let (q0, c0) = points[k - 1], (q1, c1) = points[k]
            return c0 + (c1 - c0) * (q - q0) / (q1 - q0)
        }
        return points.last!.1
    }
}
