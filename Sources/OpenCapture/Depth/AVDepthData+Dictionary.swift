import CaptureCore
import Foundation
import MediaFormats

/// ImageIO's dictionary form of depth data: what `CGImageDestinationAddAuxiliaryDataInfo` writes and
/// `CGImageSourceCopyAuxiliaryDataInfoAtIndex` reads.
extension AVDepthData {
    /// The map as an auxiliary-data info dictionary — its pixel bytes (`kCGImageAuxiliaryDataInfoData`,
    /// rows packed, in `depthDataType`), their description (`kCGImageAuxiliaryDataInfoDataDescription`:
    /// Width, Height, BytesPerRow, PixelFormat) and Apple's depth XMP (`kCGImageAuxiliaryDataInfoMetadata`:
    /// type, accuracy, quality, filtering, calibration) — and, through `outAuxDataType`,
    /// `kCGImageAuxiliaryDataTypeDisparity` or `kCGImageAuxiliaryDataTypeDepth`.
    ///
    /// Differences: the metadata is the XMP packet as `Data` (Apple: a `CGImageMetadata`), and the
    /// out-parameter is an `UnsafeMutablePointer` (Apple: `AutoreleasingUnsafeMutablePointer`); a
    /// call with `&someOptionalNSString` compiles against both.
    public func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?) -> [AnyHashable: Any]? {
        let map = depthMap
        guard let kind = DepthDataTypes.kind(of: depthDataType) else { return nil }
        let metadata = AuxiliaryImageMetadata(
            auxiliaryImageType: kind == .disparity ? "disparity" : "depth", nativeFormat: FourCC(rawValue: depthDataType),
            depthDataVersion: DepthXMP.depthDataVersion, quality: map.quality, accuracy: map.accuracy,
            isFiltered: map.isFiltered, calibration: map.calibration)
        let bytesPerPixel = DepthDataTypes.isHalfFloat(depthDataType) ? 2 : 4
        guard let dictionary = AuxiliaryDataDictionary.make(depthDataMap, bytesPerPixel: bytesPerPixel, metadata: metadata) else {
            return nil
        }
        outAuxDataType?.pointee = NSString(string: kind == .disparity ? kCGImageAuxiliaryDataTypeDisparity : kCGImageAuxiliaryDataTypeDepth)
        return dictionary
    }

    /// Depth data from an auxiliary-data info dictionary (from `dictionaryRepresentation(forAuxiliaryDataType:)`
    /// or `CGImageSourceCopyAuxiliaryDataInfoAtIndex`): the pixels in one of the four depth and
    /// disparity types, with accuracy, quality, filtering and calibration from its XMP (absent fields:
    /// relative, high, filtered, no calibration). Throws `DepthDataError.invalidDictionary` for anything
    /// else, never traps.
    public convenience init(fromDictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any]) throws {
        let (buffer, metadata) = try AuxiliaryDataDictionary.read(imageSourceAuxDataInfoDictionary) { type in
            DepthDataTypes.kind(of: type) == nil ? nil : (DepthDataTypes.isHalfFloat(type) ? 2 : 4)
        }
        if let declared = metadata.depthKind, declared != DepthDataTypes.kind(of: buffer.pixelFormat.rawValue) {
            throw DepthDataError.invalidDictionary("the XMP says \(declared) but the pixels are \(fourCharacterText(buffer.pixelFormat.rawValue))")
        }
        try self.init(depthDataMap: buffer,
                      depthDataQuality: Quality(rawValue: (metadata.quality ?? .high).rawValue) ?? .high,
                      depthDataAccuracy: Accuracy(rawValue: (metadata.accuracy ?? .relative).rawValue) ?? .relative,
                      isDepthDataFiltered: metadata.isFiltered ?? true,
                      cameraCalibrationData: metadata.calibration.map(AVCameraCalibrationData.init(calibration:)))
    }
}
