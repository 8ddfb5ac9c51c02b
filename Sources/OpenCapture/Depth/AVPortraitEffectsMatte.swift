import CaptureCore
import Foundation

/// A matte separating a person from the background (Apple's `AVPortraitEffectsMatte`): one 8-bit
/// component per pixel ('L008'), 255 = person, 0 = background, in between at soft edges such as
/// hair. Apple's type cannot be constructed; OpenCapture adds a public initialiser for fakes in tests.
///
/// Differences: methods Apple declares returning `Self` return `AVPortraitEffectsMatte` (the class
/// is final); the ImageIO dictionary carries the XMP as `Data`.
///
/// `@unchecked Sendable`: the only stored property is an immutable `let`. The pixel memory is the
/// caller's to coordinate, as with any `CVPixelBuffer`.
public final class AVPortraitEffectsMatte: NSObject, @unchecked Sendable {
    /// The matte, `kCVPixelFormatType_OneComponent8`.
    public let mattingImage: CVPixelBuffer

    private init(buffer: PixelBuffer) {
        mattingImage = buffer
        super.init()
    }

    /// For the engine: a matte of 0…1 coverage (1 channel) stored as 8-bit codes (rounded, clamped;
    /// NaN as 0). Nil for another channel count or an empty raster.
    init?(matte: Raster<Float>) {
        guard let buffer = PixelBuffer.matteBuffer(matte) else { return nil }
        mattingImage = buffer
        super.init()
    }

    /// OpenCapture addition (Apple's type has no public initialiser): a matte around `mattingImage`,
    /// used as is, e.g. a fake for tests. Throws `DepthDataError.unsupportedPixelFormat` unless the
    /// buffer is `kCVPixelFormatType_OneComponent8`.
    public convenience init(mattingImage: CVPixelBuffer) throws {
        let type = CVPixelBufferGetPixelFormatType(mattingImage)
        guard type == kCVPixelFormatType_OneComponent8 else { throw DepthDataError.unsupportedPixelFormat(type) }
        self.init(buffer: mattingImage)
    }

    /// The matte's pixel format: `kCVPixelFormatType_OneComponent8`.
    public var pixelFormatType: OSType { CVPixelBufferGetPixelFormatType(mattingImage) }

    /// The matte rotated or mirrored as `exifOrientation` says, assuming it is stored "up".
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> AVPortraitEffectsMatte {
        if exifOrientation == .up { return self }
        let transform = ExifOrientationTransform(exifOrientation: Int(exifOrientation.rawValue),
                                                 size: Size(width: mattingImage.width, height: mattingImage.height))
        guard let buffer = transform.apply(mattingImage) else { return self }
        return AVPortraitEffectsMatte(buffer: buffer)
    }

    /// A matte around another buffer (used as is). Throws `DepthDataError.unsupportedPixelFormat`
    /// unless it is `kCVPixelFormatType_OneComponent8`.
    public func replacingPortraitEffectsMatte(with pixelBuffer: CVPixelBuffer) throws -> AVPortraitEffectsMatte {
        try AVPortraitEffectsMatte(mattingImage: pixelBuffer)
    }

    /// The coverage as 0…1 floats (code / 255), read from the buffer now, for the engine and file writers.
    var matte: Raster<Float> { mattingImage.matteValues() ?? Raster<Float>(width: 0, height: 0) }

    public override var description: String {
        "<AVPortraitEffectsMatte \(fourCharacterText(pixelFormatType)) \(mattingImage.width)x\(mattingImage.height)>"
    }
}
