import CaptureCore

/// What a JPEG's frame header says, read by libjpeg without decoding the image (OpenCapture addition).
public struct JPEGHeader: Sendable, Equatable {
    public var size: Size
    /// Progressive (SOF2) rather than sequential scans.
    public var isProgressive: Bool
    /// Colour components: 1 grey, 3 YCbCr (or RGB), 4 CMYK.
    public var components: Int
    /// The chroma planes' sampling against luma for a 3-component image whose Cb and Cr sample alike; nil for other
    /// layouts (grey, CMYK, or factors none of the three cases describe).
    public var chromaSubsampling: ChromaSubsampling?

    public init(size: Size, isProgressive: Bool, components: Int, chromaSubsampling: ChromaSubsampling?) {
        self.size = size
        self.isProgressive = isProgressive
        self.components = components
        self.chromaSubsampling = chromaSubsampling
    }
}
