import CaptureCore

/// What depth and matte a HEIC or JPEG holds, from its structure and XMP only (no pixels decoded):
/// `EmbeddedDepthReader.describe`.
public struct EmbeddedDepthDescription: Sendable, Equatable {
    /// The stored depth map's size and XMP, nil without a depth map.
    public var depthSize: Size?
    public var depthMetadata: AuxiliaryImageMetadata?
    /// The stored matte's size and XMP, nil without a matte.
    public var matteSize: Size?
    public var matteMetadata: AuxiliaryImageMetadata?

    public init(depthSize: Size? = nil, depthMetadata: AuxiliaryImageMetadata? = nil, matteSize: Size? = nil,
                matteMetadata: AuxiliaryImageMetadata? = nil) {
        self.depthSize = depthSize
        self.depthMetadata = depthMetadata
        self.matteSize = matteSize
        self.matteMetadata = matteMetadata
    }
}
