import Foundation

/// An image file opened for reading (ImageIO's `CGImageSource`), as far as depth needs it: the
/// auxiliary images of HEIC and JPEG files (`CGImageSourceCopyAuxiliaryDataInfoAtIndex`). Decoding
/// the primary image, properties and thumbnails are not part of this subset.
///
/// `Sendable`: the only stored property is an immutable `let`.
public final class CGImageSource: Sendable {
    /// The file's bytes.
    let data: Data

    init(data: Data) {
        self.data = data
    }
}
