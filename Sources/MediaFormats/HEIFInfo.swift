import CaptureCore

/// What a HEIF file holds, as libheif and the file's item table report it.
public struct HEIFInfo: Sendable, Equatable {
    /// Primary image size as displayed (after `irot`).
    public var width: Int
    public var height: Int
    /// Item type of the primary image: "grid" for tiled images, "hvc1" for a single HEVC image.
    public var primaryItemType: String
    /// Size of the first thumbnail of the primary image, if it has one.
    public var thumbnailSize: Size?
    public var hasThumbnail: Bool { thumbnailSize != nil }
    /// Whether an Exif item describes the primary image.
    public var hasExif: Bool
    /// Whether an XMP (`mime` application/rdf+xml) item describes the primary image.
    public var hasXMP: Bool
    /// The colour profile libheif prefers: "prof" or "rICC" (ICC), "nclx", or nil.
    public var colorProfileType: String?
    /// The ICC profile's description, e.g. "Display P3", when there is one.
    public var colorProfileDescription: String?
    /// nclx colour primaries (1 sRGB/BT.709, 12 P3-D65) when an nclx `colr` box is present.
    public var colorPrimaries: Int?
    /// Number of items in the file (tiles, grid, thumbnail, metadata, …).
    public var itemCount: Int

    public init(width: Int, height: Int, primaryItemType: String, thumbnailSize: Size?, hasExif: Bool, hasXMP: Bool,
                colorProfileType: String?, colorProfileDescription: String?, colorPrimaries: Int?, itemCount: Int) {
        self.width = width
        self.height = height
        self.primaryItemType = primaryItemType
        self.thumbnailSize = thumbnailSize
        self.hasExif = hasExif
        self.hasXMP = hasXMP
        self.colorProfileType = colorProfileType
        self.colorProfileDescription = colorProfileDescription
        self.colorPrimaries = colorPrimaries
        self.itemCount = itemCount
    }
}
