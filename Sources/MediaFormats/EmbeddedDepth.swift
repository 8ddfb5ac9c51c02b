import CaptureCore

/// The depth map and portrait matte a HEIC or JPEG carries (`EmbeddedDepthReader`), each nil when absent.
public struct EmbeddedDepth: Sendable {
    /// The depth or disparity map with its calibration, at its stored size; NaN where an
    /// unfiltered map had no measurement.
    public var depth: DepthMap?
    /// The portrait effects matte, 0…1 (1 = person), at its stored size.
    public var matte: Raster<Float>?
    /// The depth map's XMP as stored (range, formats, Apple's distortion polynomial if any).
    public var depthMetadata: AuxiliaryImageMetadata?
    /// The matte's XMP as stored.
    public var matteMetadata: AuxiliaryImageMetadata?

    public init(depth: DepthMap? = nil, matte: Raster<Float>? = nil, depthMetadata: AuxiliaryImageMetadata? = nil,
                matteMetadata: AuxiliaryImageMetadata? = nil) {
        self.depth = depth
        self.matte = matte
        self.depthMetadata = depthMetadata
        self.matteMetadata = matteMetadata
    }
}
