import CaptureCore

/// Errors thrown by the Fusion module. Bad input always surfaces as one of these, never as a trap.
public enum FusionError: DescribedError, Equatable, Sendable {
    /// The image array was empty.
    case noImages
    /// The images do not all have the same width, height and channel count.
    case sizeMismatch
    /// `exposures.count` differs from `images.count`.
    case exposureCountMismatch
    /// An exposure was zero, negative or not finite.
    case invalidExposure(Double)
    /// The operation needs a different number of interleaved channels (e.g. RGB = 3).
    case unsupportedChannelCount(Int)
    /// The reference index is not an index of the image array.
    case referenceOutOfRange(Int)
    /// A parameter (weight, width, maximum shift, saturation level) is out of its valid range.
    case invalidParameter(String)

    public var description: String {
        switch self {
        case .noImages: return "no images to fuse"
        case .sizeMismatch: return "images differ in size or channel count"
        case .exposureCountMismatch: return "the number of exposures differs from the number of images"
        case .invalidExposure(let e): return "invalid exposure \(e) (must be finite and > 0)"
        case .unsupportedChannelCount(let c): return "unsupported channel count \(c)"
        case .referenceOutOfRange(let r): return "reference index \(r) is out of range"
        case .invalidParameter(let m): return "invalid parameter: \(m)"
        }
    }

    /// Checks that `images` is non-empty and that every image has the shape of the first.
    static func validate<T>(_ images: [Raster<T>], channels: Int? = nil) throws {
        guard let first = images.first else { throw FusionError.noImages }
        for image in images where image.width != first.width || image.height != first.height
            || image.channels != first.channels {
            throw FusionError.sizeMismatch
        }
        if let channels, first.channels != channels { throw FusionError.unsupportedChannelCount(first.channels) }
    }
}
