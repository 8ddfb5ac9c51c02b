/// JPEG chroma subsampling of the Cb and Cr planes relative to luma.
public enum ChromaSubsampling: Sendable, Hashable, CaseIterable {
    /// Full-resolution chroma.
    case yuv444
    /// Chroma halved horizontally.
    case yuv422
    /// Chroma halved in both directions (what cameras write).
    case yuv420
}
