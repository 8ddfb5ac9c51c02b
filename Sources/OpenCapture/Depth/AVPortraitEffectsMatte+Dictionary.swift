import CaptureCore
import Foundation
import MediaFormats

/// ImageIO's dictionary form of a portrait effects matte.
extension AVPortraitEffectsMatte {
    /// The matte as an auxiliary-data info dictionary: its 8-bit pixels (rows packed), their
    /// description and Apple's matte XMP; `outAuxDataType` receives
    /// `kCGImageAuxiliaryDataTypePortraitEffectsMatte`. Differences as for `AVDepthData`'s: the XMP
    /// is `Data` and the out-parameter an `UnsafeMutablePointer`.
    public func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?) -> [AnyHashable: Any]? {
        guard let dictionary = AuxiliaryDataDictionary.make(mattingImage, bytesPerPixel: 1, metadata: MatteAuxiliaryImage.metadata) else {
            return nil
        }
        outAuxDataType?.pointee = NSString(string: kCGImageAuxiliaryDataTypePortraitEffectsMatte)
        return dictionary
    }

    /// A matte from an auxiliary-data info dictionary holding `kCVPixelFormatType_OneComponent8`
    /// pixels. Throws `DepthDataError.invalidDictionary` for anything else (a depth map's dictionary
    /// included), never traps.
    public convenience init(fromDictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any]) throws {
        let (buffer, metadata) = try AuxiliaryDataDictionary.read(imageSourceAuxDataInfoDictionary) { type in
            type == kCVPixelFormatType_OneComponent8 ? 1 : nil
        }
        if metadata.depthKind != nil {
            throw DepthDataError.invalidDictionary("its XMP describes a depth map, not a portrait effects matte")
        }
        try self.init(mattingImage: buffer)
    }
}
