import CaptureCore
import Foundation
import MediaFormats

/// One delivered photo in the engine's own terms; the Apple surface wraps it as `AVCapturePhoto`.
package struct CapturedPhoto: Sendable {
    /// 1-based index among the request's expected photos.
    package var photoCount: Int
    package var isRaw: Bool
    /// Start of the exposure on the session clock, seconds; nil when the photo failed.
    package var timestamp: Double?
    /// The encoded file when it was encoded eagerly (JPEG, HEIC).
    package var fileData: Data?
    /// The file encoded on demand (TIFF for pixel-buffer photos, DNG for RAW).
    package var fileDataProvider: (@Sendable () -> Data?)?
    /// Uncompressed or RAW pixels.
    package var pixelBuffer: PixelBuffer?
    package var preview: PixelBuffer?
    /// What the file records (also the source of the photo's metadata dictionary).
    package var exif: ExifMetadata
    /// 0-based bracket position; nil outside a bracket.
    package var bracketIndex: Int?
    package var lensStabilization: LensStabilization
    /// The noise-free frame and depth the sensor saw, computed on demand (nil for replayed frames).
    package var groundTruth: @Sendable () -> GroundTruthFrame?
    /// The depth measured with this photo (processed photos of depth requests).
    package var depth: DepthMap? = nil
    /// The pixel format the depth is delivered in ('hdis', 'fdis', 'hdep' or 'fdep').
    package var depthPixelFormat: FourCC? = nil
    /// The portrait effects matte (0…1), when asked for and a subject was found.
    package var matte: Raster<Float>? = nil
    /// The photo camera's calibration at the photo's size, when asked for.
    package var calibration: CameraCalibration? = nil
}

/// The simulator's truth for one photo at its readout size: linear sRGB (interleaved RGB) and depth in metres.
package struct GroundTruthFrame: Sendable {
    package var width: Int
    package var height: Int
    package var linearSRGB: [Float]
    package var depth: [Float]
    /// EV the ISP brightened the photo by (auto exposure's highlight headroom; the raw's baseline exposure).
    package var baselineExposure: Double = 0
}
