/// An auxiliary image of a HEIF file's primary image (an item with an `auxl` reference to it):
/// a depth map, an alpha plane, Apple's portrait or semantic mattes, an HDR gain map.
public struct HEIFAuxiliaryImage: Sendable, Equatable {
    public var item: HEIFItem
    /// The `auxC` URN, e.g. "urn:mpeg:hevc:2015:auxid:2" (depth) or
    /// "urn:com:apple:photo:2018:aux:portraiteffectsmatte".
    public var type: String
    /// The `auxC` bytes after the URN (for depth: the depth representation SEI).
    public var subtype: [UInt8]
    /// The XMP packet of the `application/rdf+xml` item that describes it (`cdsc`), if any.
    public var xmp: [UInt8]?

    public init(item: HEIFItem, type: String, subtype: [UInt8], xmp: [UInt8]?) {
        self.item = item
        self.type = type
        self.subtype = subtype
        self.xmp = xmp
    }
}
