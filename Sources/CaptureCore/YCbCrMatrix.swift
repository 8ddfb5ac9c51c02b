/// The matrix between R′G′B′ and Y′CbCr: its luma weights, and the one table of its names — the code a stream's or a
/// file's colour description gives it (ISO/IEC 23091-2 MatrixCoefficients: H.264/HEVC VUI, HEIF `nclx`, FFmpeg's
/// `AVColorSpace`) and CoreVideo's attachment value (`CoreVideoAttachment`).
///
/// Which matrix a picture gets: photos (JPEG, HEIC, their uncompressed buffers) BT.601, as JPEG defines it; video
/// frames the matrix of their size (`video(width:height:)`): BT.709 for HD, as an iPhone streams and records them.
public enum YCbCrMatrix: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ITU-R BT.601 (SD video, JPEG/JFIF, HEIC): code 6 (5, BT.470 BG, is the same matrix).
    case bt601
    /// ITU-R BT.709 (HD video): code 1.
    case bt709
    /// ITU-R BT.2020 non-constant luminance (UHD, HDR video): code 9 (10, constant luminance, decoded alike).
    case bt2020
    /// SMPTE 240M (early HDTV): code 7.
    case smpte240M

    /// The matrix of a video frame of `width`×`height`: BT.709 for HD — 1280 wide or 720 lines and more — and BT.601
    /// below (SD), as Apple's video pipeline tags them (HD and SD colorimetry) and as players guess an untagged stream's.
    public static func video(width: Int, height: Int) -> YCbCrMatrix {
        width >= 1280 || height >= 720 ? .bt709 : .bt601
    }

    /// The matrix a colour description's code names (1, 5, 6, 7, 9, 10); nil for unspecified (2) and the rest.
    public init?(code: Int) {
        switch code {
        case 1: self = .bt709
        case 5, 6: self = .bt601
        case 7: self = .smpte240M
        case 9, 10: self = .bt2020
        default: return nil
        }
    }

    /// The code written for it in a colour description (ISO/IEC 23091-2 MatrixCoefficients).
    public var code: Int {
        switch self {
        case .bt601: return 6
        case .bt709: return 1
        case .bt2020: return 9
        case .smpte240M: return 7
        }
    }

    /// Kr, Kg, Kb: Y′ = Kr·R′ + Kg·G′ + Kb·B′.
    public var lumaWeights: SIMD3<Double> {
        switch self {
        case .bt601: return SIMD3(LumaWeights.rec601)
        case .bt709: return SIMD3(LumaWeights.rec709)
        case .bt2020: return SIMD3(0.2627, 0.6780, 0.0593)
        case .smpte240M: return SIMD3(0.212, 0.701, 0.087)
        }
    }

    /// "BT.601", "BT.709", "BT.2020", "SMPTE 240M".
    public var description: String {
        switch self {
        case .bt601: return "BT.601"
        case .bt709: return "BT.709"
        case .bt2020: return "BT.2020"
        case .smpte240M: return "SMPTE 240M"
        }
    }
}
