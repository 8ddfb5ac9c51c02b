/// One item of a HEIF file's `iinf` table, with where its data lies and its properties.
public struct HEIFItem: Sendable, Equatable {
    public var id: UInt32
    /// Item type: "hvc1", "grid", "Exif", "mime", "av01", …
    public var type: String
    /// `infe` flag bit 0: not meant to be shown on its own (grid tiles, auxiliary images).
    public var hidden: Bool
    public var name: String
    /// Content type of a "mime" item (e.g. "application/rdf+xml" for XMP).
    public var contentType: String?
    /// Spatial extent from the item's `ispe` property, before `irot`.
    public var width: Int?
    public var height: Int?
    /// Counter-clockwise rotation in quarter turns from `irot` (0…3).
    public var rotation: Int
}
