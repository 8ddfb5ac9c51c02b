import CaptureCore
import Foundation

/// A per-pixel depth or disparity map with its meaning and calibration (Apple's `AVDepthData`).
/// Depth is in metres, disparity in 1/m; NaN marks pixels without a measurement in unfiltered maps.
/// Apple's type cannot be constructed; OpenCapture adds a public initialiser for fakes in tests.
///
/// Differences: `converting(toDepthDataType:)` with a type not in `availableDepthDataTypes` reports
/// `DepthDataError.unsupportedDepthDataType` to `DeviceDiagnostics` and returns the receiver (Apple
/// raises); methods Apple declares returning `Self` return `AVDepthData` (the class is final).
/// The ImageIO dictionary carries the XMP as `Data` (see `dictionaryRepresentation(forAuxiliaryDataType:)`).
///
/// `@unchecked Sendable`: every stored property is an immutable `let`. The map's pixel memory is
/// the caller's to coordinate, as with any `CVPixelBuffer`.
public final class AVDepthData: NSObject, @unchecked Sendable {
    /// Whether the map is good enough for effects (Apple's `AVDepthData.Quality`).
    public enum Quality: Int, Sendable {
        case low = 0, high = 1
    }

    /// Whether the values are true distances (`absolute`) or correct only up to an unknown scale
    /// and offset (`relative`, as dual-camera stereo gives) (Apple's `AVDepthData.Accuracy`).
    public enum Accuracy: Int, Sendable {
        case relative = 0, absolute = 1
    }

    /// The map: one component of 'hdis', 'fdis', 'hdep' or 'fdep' (half or single floats).
    public let depthDataMap: CVPixelBuffer
    public let depthDataQuality: Quality
    public let depthDataAccuracy: Accuracy
    /// Whether holes were filled and edges smoothed; unfiltered maps hold NaN where nothing was measured.
    public let isDepthDataFiltered: Bool
    /// The calibration of the camera the map is registered to; nil after `replacingDepthDataMap(with:)`.
    public let cameraCalibrationData: AVCameraCalibrationData?

    private init(buffer: PixelBuffer, quality: Quality, accuracy: Accuracy, filtered: Bool,
                 calibration: AVCameraCalibrationData?) {
        depthDataMap = buffer
        depthDataQuality = quality
        depthDataAccuracy = accuracy
        isDepthDataFiltered = filtered
        cameraCalibrationData = calibration
        super.init()
    }

    /// For the engine: `depthMap` stored as `pixelFormat` (one of the four depth types; values are
    /// converted if the kind differs, rounded to half floats for the Float16 types). Nil for another
    /// pixel format or an empty map.
    init?(depthMap: DepthMap, pixelFormat: OSType) {
        guard let kind = DepthDataTypes.kind(of: pixelFormat), depthMap.values.channels == 1,
              let buffer = PixelBuffer.depthBuffer(depthMap.converted(to: kind).values, type: pixelFormat) else { return nil }
        depthDataMap = buffer
        depthDataQuality = Quality(rawValue: depthMap.quality.rawValue) ?? .high
        depthDataAccuracy = Accuracy(rawValue: depthMap.accuracy.rawValue) ?? .relative
        isDepthDataFiltered = depthMap.isFiltered
        cameraCalibrationData = depthMap.calibration.map(AVCameraCalibrationData.init(calibration:))
        super.init()
    }

    /// OpenCapture addition (Apple's type has no public initialiser): depth data around
    /// `depthDataMap`, which is used as is (not copied), e.g. a fake for tests. Throws
    /// `DepthDataError.unsupportedPixelFormat` unless the buffer is 'hdis', 'fdis', 'hdep' or 'fdep'.
    public convenience init(depthDataMap: CVPixelBuffer, depthDataQuality: Quality = .high,
                            depthDataAccuracy: Accuracy = .relative, isDepthDataFiltered: Bool = true,
                            cameraCalibrationData: AVCameraCalibrationData? = nil) throws {
        let type = CVPixelBufferGetPixelFormatType(depthDataMap)
        guard DepthDataTypes.kind(of: type) != nil else { throw DepthDataError.unsupportedPixelFormat(type) }
        self.init(buffer: depthDataMap, quality: depthDataQuality, accuracy: depthDataAccuracy,
                  filtered: isDepthDataFiltered, calibration: cameraCalibrationData)
    }

    /// The map's pixel format, e.g. `kCVPixelFormatType_DisparityFloat16`.
    public var depthDataType: OSType { CVPixelBufferGetPixelFormatType(depthDataMap) }

    /// The types `converting(toDepthDataType:)` accepts: all four depth and disparity types.
    public var availableDepthDataTypes: [OSType] { DepthDataTypes.all }

    /// The same data as another type, as Apple converts: depth ↔ disparity by the reciprocal of each
    /// value (0 ↔ +∞, NaN stays NaN), half ↔ single floats with IEEE 754 rounding to nearest even.
    /// The calibration, quality, accuracy and filtering carry over. A type not in
    /// `availableDepthDataTypes` is reported to `DeviceDiagnostics` and the receiver is returned.
    public func converting(toDepthDataType depthDataType: OSType) -> AVDepthData {
        guard availableDepthDataTypes.contains(depthDataType), let kind = DepthDataTypes.kind(of: depthDataType) else {
            DeviceDiagnostics.report(DepthDataError.unsupportedDepthDataType(depthDataType))
            return self
        }
        if depthDataType == self.depthDataType { return self }
        guard let buffer = PixelBuffer.depthBuffer(depthMap.converted(to: kind).values, type: depthDataType) else { return self }
        return AVDepthData(buffer: buffer, quality: depthDataQuality, accuracy: depthDataAccuracy,
                           filtered: isDepthDataFiltered, calibration: cameraCalibrationData)
    }

    /// The data rotated or mirrored as `exifOrientation` says, assuming it is stored "up": the map's
    /// pixels move (bit for bit) and the calibration follows (reference dimensions, focal lengths,
    /// principal point and distortion centre; the extrinsic rotation and translation turn with the
    /// image axes).
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> AVDepthData {
        if exifOrientation == .up { return self }
        let transform = ExifOrientationTransform(exifOrientation: Int(exifOrientation.rawValue),
                                                 size: Size(width: depthDataMap.width, height: depthDataMap.height))
        guard let buffer = transform.apply(depthDataMap) else { return self }
        let calibration = cameraCalibrationData.map {
            AVCameraCalibrationData(calibration: ExifOrientationTransform.apply(exifOrientation: Int(exifOrientation.rawValue),
                                                                                to: $0.calibration))
        }
        return AVDepthData(buffer: buffer, quality: depthDataQuality, accuracy: depthDataAccuracy,
                           filtered: isDepthDataFiltered, calibration: calibration)
    }

    /// The same quality, accuracy and filtering around another map (used as is); the calibration is
    /// dropped, as Apple does. Throws `DepthDataError.unsupportedPixelFormat` unless the buffer is one
    /// of the four depth and disparity types.
    public func replacingDepthDataMap(with pixelBuffer: CVPixelBuffer) throws -> AVDepthData {
        let type = CVPixelBufferGetPixelFormatType(pixelBuffer)
        guard DepthDataTypes.kind(of: type) != nil else { throw DepthDataError.unsupportedPixelFormat(type) }
        return AVDepthData(buffer: pixelBuffer, quality: depthDataQuality, accuracy: depthDataAccuracy,
                           filtered: isDepthDataFiltered, calibration: nil)
    }

    /// The map as CaptureCore's `DepthMap` (read from the buffer now, so edits to its pixels show),
    /// for the engine and file writers.
    var depthMap: DepthMap {
        let values = depthDataMap.depthValues() ?? Raster<Float>(width: 0, height: 0)
        return DepthMap(values: values, kind: DepthDataTypes.kind(of: depthDataType) ?? .disparity,
                        accuracy: DepthMap.Accuracy(rawValue: depthDataAccuracy.rawValue) ?? .relative,
                        quality: DepthMap.Quality(rawValue: depthDataQuality.rawValue) ?? .high,
                        isFiltered: isDepthDataFiltered, calibration: cameraCalibrationData?.calibration)
    }

    public override var description: String {
        "<AVDepthData \(fourCharacterText(depthDataType)) \(depthDataMap.width)x\(depthDataMap.height), "
            + "\(depthDataAccuracy == .absolute ? "absolute" : "relative"), \(depthDataQuality == .high ? "high" : "low") quality, "
            + "\(isDepthDataFiltered ? "filtered" : "unfiltered")\(cameraCalibrationData == nil ? "" : ", calibrated")>"
    }
}
