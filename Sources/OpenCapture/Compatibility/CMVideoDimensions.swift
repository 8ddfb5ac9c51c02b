/// Width and height of video or a photo in pixels (CMFormatDescription.h `CMVideoDimensions`).
/// Like Apple's C struct it is not `Equatable`; compare `width` and `height`.
public struct CMVideoDimensions: Sendable {
    /// Width in pixels.
    public var width: Int32
    /// Height in pixels.
    public var height: Int32

    /// Zero dimensions.
    public init() { width = 0; height = 0 }

    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
}
