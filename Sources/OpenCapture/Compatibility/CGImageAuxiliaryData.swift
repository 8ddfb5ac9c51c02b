// Auxiliary-data type names and info-dictionary keys from ImageIO's CGImageSource.h /
// CGImageProperties.h, used by `AVDepthData` and `AVPortraitEffectsMatte` dictionary
// representations. Apple's constants are `CFString`s whose value is the constant's own name; here
// they are `String`s with the same values, so `kCGImageAuxiliaryDataTypeDepth as String` compiles.

/// Auxiliary image of depth in metres ("kCGImageAuxiliaryDataTypeDepth").
public let kCGImageAuxiliaryDataTypeDepth: String = "kCGImageAuxiliaryDataTypeDepth"
/// Auxiliary image of disparity in 1/metres ("kCGImageAuxiliaryDataTypeDisparity").
public let kCGImageAuxiliaryDataTypeDisparity: String = "kCGImageAuxiliaryDataTypeDisparity"
/// Auxiliary portrait effects matte ("kCGImageAuxiliaryDataTypePortraitEffectsMatte").
public let kCGImageAuxiliaryDataTypePortraitEffectsMatte: String = "kCGImageAuxiliaryDataTypePortraitEffectsMatte"
/// Info-dictionary key for the auxiliary image's pixel bytes, `Data` ("kCGImageAuxiliaryDataInfoData").
public let kCGImageAuxiliaryDataInfoData: String = "kCGImageAuxiliaryDataInfoData"
/// Info-dictionary key for the pixel layout: Width, Height, BytesPerRow, PixelFormat
/// ("kCGImageAuxiliaryDataInfoDataDescription").
public let kCGImageAuxiliaryDataInfoDataDescription: String = "kCGImageAuxiliaryDataInfoDataDescription"
/// Info-dictionary key for the auxiliary image's XMP metadata ("kCGImageAuxiliaryDataInfoMetadata").
public let kCGImageAuxiliaryDataInfoMetadata: String = "kCGImageAuxiliaryDataInfoMetadata"
