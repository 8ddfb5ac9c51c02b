import CaptureCore
import Foundation
import MediaFormats

/// An image source over `data` (ImageIO's function); nil for empty data. The file is examined when
/// something is read from it. `options` are ignored.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    let bytes = Data(referencing: data)
    return bytes.isEmpty ? nil : CGImageSource(data: bytes)
}

/// An image source over the file at `url` (read now); nil when it cannot be read or is empty.
/// `options` are ignored.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard let fileURL = url as URL?, let bytes = try? Data(contentsOf: fileURL), !bytes.isEmpty else { return nil }
    return CGImageSource(data: bytes)
}

/// The auxiliary image of `auxiliaryImageDataType` of image `index` as an info dictionary (ImageIO's
/// function), ready for `AVDepthData(fromDictionaryRepresentation:)` or
/// `AVPortraitEffectsMatte(fromDictionaryRepresentation:)`: a HEIC's depth or matte auxiliary item,
/// or a JPEG's MPF depth or matte image, with its XMP. Depth comes in the map's native format
/// (half floats unless the XMP says otherwise), decoded from the 8-bit codes the file stores.
/// Nil when the file has no such image (a disparity map is not returned as depth or the other way
/// round), for an index other than 0, or for a file it cannot read.
///
/// Difference: `auxiliaryImageDataType` is a `String` (the constants are `String`s here).
public func CGImageSourceCopyAuxiliaryDataInfoAtIndex(_ isrc: CGImageSource, _ index: Int,
                                                      _ auxiliaryImageDataType: String) -> CFDictionary? {
    guard index == 0, let embedded = try? EmbeddedDepthReader.read(isrc.data) else { return nil }
    var dictionary: [AnyHashable: Any]?
    switch auxiliaryImageDataType {
    case kCGImageAuxiliaryDataTypeDisparity, kCGImageAuxiliaryDataTypeDepth:
        let kind: DepthMap.Kind = auxiliaryImageDataType == kCGImageAuxiliaryDataTypeDisparity ? .disparity : .depth
        guard let map = embedded.depth, map.kind == kind else { return nil }
        let native = embedded.depthMetadata?.nativeFormat.map(\.rawValue)
        let format = native.flatMap { DepthDataTypes.kind(of: $0) == kind ? $0 : nil }
            ?? DepthDataTypes.type(kind: kind, halfFloat: true)
        dictionary = AVDepthData(depthMap: map, pixelFormat: format)?.dictionaryRepresentation(forAuxiliaryDataType: nil)
    case kCGImageAuxiliaryDataTypePortraitEffectsMatte:
        dictionary = embedded.matte.flatMap(AVPortraitEffectsMatte.init(matte:))?.dictionaryRepresentation(forAuxiliaryDataType: nil)
    default:
        return nil
    }
    return dictionary.map { NSDictionary(dictionary: $0) }
}
