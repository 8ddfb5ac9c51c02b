import CaptureCore
import Depth
import Foundation
import MediaFormats

/// OpenCapture additions: depth and matte as files people can open.
extension AVDepthData {
    /// The map as a PFM (Portable Float Map, 1 channel, the delivered type's values: 1/m or metres;
    /// missing values stay NaN), readable by Middlebury's tools, OpenCV and numpy.
    public func pfmRepresentation() throws -> Data {
        guard let values = depthDataMap.depthValues() else { throw DepthError.noData("the depth map has no readable values") }
        return try PFMCodec.encode(values)
    }

    /// A colour-mapped picture of the map (PNG; near is warm, far is cool, missing is black).
    public func colorMappedPNGRepresentation() throws -> Data {
        guard let values = depthDataMap.depthValues() else { throw DepthError.noData("the depth map has no readable values") }
        let kind: DepthMap.Kind = depthDataType == kCVPixelFormatType_DepthFloat16 || depthDataType == kCVPixelFormatType_DepthFloat32
            ? .depth : .disparity
        let map = DepthMap(values: values, kind: kind, accuracy: depthDataAccuracy == .absolute ? .absolute : .relative,
                           isFiltered: isDepthDataFiltered)
        return try PNGCodec.encode(DepthColorMap.colorized(map))
    }
}

extension AVPortraitEffectsMatte {
    /// The matte as an 8-bit greyscale PNG (white = the person).
    public func pngRepresentation() throws -> Data {
        guard let values = mattingImage.matteValues() else { throw DepthError.noData("the matte has no readable values") }
        var grey = Raster<UInt8>(width: values.width, height: values.height, channels: 1)
        grey.storage = values.storage.map { UInt8((min(max($0.isFinite ? $0 : 0, 0), 1) * 255).rounded()) }
        return try PNGCodec.encode(grey)
    }
}
