import Foundation

/// What `PhotoFusion` made of a bracket (OpenCapture addition).
public struct PhotoFusionResult: Sendable {
    public let width: Int
    public let height: Int
    /// Translation of each input relative to the reference (middle) image, as aligned.
    public let shifts: [Shift]
    /// Mertens exposure fusion of the aligned inputs, as JPEG.
    public let fusedJPEG: Data
    /// Relative exposure of each input (duration × ISO), when known.
    public let exposures: [Double]?
    /// Scene-linear HDR merge as a Radiance `.hdr` file, when the exposures are known.
    public let radianceHDR: Data?
    /// That HDR merge tone-mapped to sRGB, as JPEG.
    public let toneMappedJPEG: Data?

    /// A translation in pixels.
    public struct Shift: Sendable, Equatable {
        public let dx: Int
        public let dy: Int
    }
}
