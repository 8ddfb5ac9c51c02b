import CaptureCore

/// What a JPEG's frame header says, read by libjpeg without decoding the image (OpenCapture addition).
public struct JPEGHeader: Sendable, Equatable {
    public var size: Size
    /// Progressive (SOF2) rather than sequential scans.
    public var isProgressive: Bool
    /// Colour components: 1 grey, 3 YCbCr or RGB, 4 CMYK or YCCK.
    public var components: Int
    /// Three components stored as R, G, B (an Adobe marker's transform 0, or components named R, G, B) rather than
    /// YCbCr.
    public var storesRGB: Bool
    /// For three components whose two chroma (or second and third) planes sample alike: how many luma samples each
    /// of theirs spans, across and down ((2, 2) for 4:2:0); nil for other layouts.
    public var chromaSampling: SIMD2<Int>?

    public init(size: Size, isProgressive: Bool, components: Int, storesRGB: Bool = false, chromaSampling: SIMD2<Int>?) {
        self.size = size
        self.isProgressive = isProgressive
        self.components = components
        self.storesRGB = storesRGB
        self.chromaSampling = chromaSampling
    }

    /// The chroma subsampling, when it is one of the three OpenCapture writes.
    public var chromaSubsampling: ChromaSubsampling? {
        switch chromaSampling {
        case SIMD2(1, 1)?: .yuv444
        case SIMD2(2, 1)?: .yuv422
        case SIMD2(2, 2)?: .yuv420
        default: nil
        }
    }
}
