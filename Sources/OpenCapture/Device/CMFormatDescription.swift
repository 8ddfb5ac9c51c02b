import CaptureCore

/// A video format description (CoreMedia's `CMFormatDescription`, reduced to what capture code reads).
///
/// `@unchecked Sendable`: every stored property is an immutable `let`.
public final class CMFormatDescription: @unchecked Sendable, Hashable {
    /// Pixel dimensions of the video format.
    public let dimensions: CMVideoDimensions
    /// The pixel format code (CoreMedia's media subtype).
    public let mediaSubType: FourCharCode

    init(dimensions: Size, mediaSubType: FourCharCode) {
        self.dimensions = CMVideoDimensions(width: Int32(dimensions.width), height: Int32(dimensions.height))
        self.mediaSubType = mediaSubType
    }

    public static func == (a: CMFormatDescription, b: CMFormatDescription) -> Bool {
        a.dimensions.width == b.dimensions.width && a.dimensions.height == b.dimensions.height && a.mediaSubType == b.mediaSubType
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dimensions.width); hasher.combine(dimensions.height); hasher.combine(mediaSubType)
    }
}

/// The video dimensions of a format description (CoreMedia).
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMFormatDescription) -> CMVideoDimensions {
    videoDesc.dimensions
}

/// The media subtype (pixel format) of a format description (CoreMedia).
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode {
    desc.mediaSubType
}
