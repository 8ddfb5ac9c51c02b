import MediaFormats

/// The request's own values for fields of the written EXIF (from Apple's `settings.metadata`),
/// applied over what the camera records.
package struct MetadataOverrides: Sendable, Equatable {
    package var make: String?
    package var model: String?
    package var software: String?
    package var artist: String?
    package var copyright: String?
    package var imageDescription: String?
    package var userComment: String?
    package var lensMake: String?
    package var lensModel: String?
    /// EXIF orientation 1…8.
    package var orientation: Int?
    /// The location for the GPS IFD.
    package var gps: GPSInfo?

    package init() {}
}
