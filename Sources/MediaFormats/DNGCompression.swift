/// How DNGWriter stores the mosaic.
public enum DNGCompression: Sendable, Hashable {
    /// Uncompressed 16-bit strips (Compression 1): fastest to write and to read.
    case none
    /// Lossless JPEG tiles of 256×256 (Compression 7), about half the size; needs codes below 32768.
    case losslessJPEG
}
