import CaptureCore
import Foundation

/// What `PhotoFusion` made of a bracket (OpenCapture addition).
public struct PhotoFusionResult: Sendable {
    public let width: Int
    public let height: Int
    /// Translation of each input relative to the reference (middle) image, as aligned.
    public let shifts: [Shift]
    /// Mertens exposure fusion of the aligned inputs — for a bracket of raw frames (`mergedRaw`), the frames merged raw
    /// and developed — as JPEG (EXIF, orientation and ICC of the reference frame).
    public let fusedJPEG: Data
    /// Whether the inputs were raw frames merged before developing (`RawBracketMerger`) rather than fused developed.
    public let mergedRaw: Bool
    /// Relative exposure of each input (duration × ISO), when known.
    public let exposures: [Double]?
    /// Scene-linear HDR merge as a Radiance `.hdr` file, when the exposures are known; turned upright by `orientation`
    /// (the format has no orientation tag).
    public let radianceHDR: Data?
    /// That HDR merge tone-mapped (`ToneMapper`: local, then global), as JPEG in `colorSpace` (same metadata as `fusedJPEG`).
    public let toneMappedJPEG: Data?
    /// The colour space the inputs declared, which the outputs are written in.
    public let colorSpace: ColorSpace
    /// The EXIF orientation recorded in the JPEGs (the reference frame's; their pixels are not rotated, the `.hdr`'s are).
    public let orientation: Int
    /// How long each step took, in order (read headers, decode, align, exposure fusion, encode, HDR merge, tone map…).
    public let timings: [StepTime]
    /// Per frame, the share of its clearly bright or dark pixels (at the alignment's finest level, a quarter of full
    /// resolution with tile alignment) on the other side of the median from the reference frame's once aligned: a few
    /// percent for a bracket of one scene, about half for a frame of another scene (0 for the reference; nil without
    /// alignment or for a raw merge) (OpenCapture addition).
    public var disagreement: [Double]? = nil

    /// A translation in pixels.
    public struct Shift: Sendable, Equatable {
        public let dx: Int
        public let dy: Int
    }

    /// One step of a fusion and its wall-clock time.
    public struct StepTime: Sendable, Equatable {
        public let step: String
        public let seconds: Double
    }
}
