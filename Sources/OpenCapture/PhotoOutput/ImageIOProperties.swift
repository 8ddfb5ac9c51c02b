// ImageIO property keys (CGImageProperties.h) that photo metadata dictionaries use. Apple's are
// CFStrings; here they are Strings, so `kCGImagePropertyOrientation as String` compiles unchanged.

public let kCGImagePropertyOrientation = "Orientation"
public let kCGImagePropertyPixelWidth = "PixelWidth"
public let kCGImagePropertyPixelHeight = "PixelHeight"
public let kCGImagePropertyDPIWidth = "DPIWidth"
public let kCGImagePropertyDPIHeight = "DPIHeight"
public let kCGImagePropertyColorModel = "ColorModel"
public let kCGImagePropertyProfileName = "ProfileName"
public let kCGImagePropertyDepth = "Depth"
public let kCGImagePropertyExifDictionary = "{Exif}"
public let kCGImagePropertyExifAuxDictionary = "{ExifAux}"
public let kCGImagePropertyTIFFDictionary = "{TIFF}"
public let kCGImagePropertyGPSDictionary = "{GPS}"
public let kCGImagePropertyIPTCDictionary = "{IPTC}"
public let kCGImagePropertyJFIFDictionary = "{JFIF}"
public let kCGImagePropertyMakerAppleDictionary = "{MakerApple}"
public let kCGImagePropertyHEIFDictionary = "{HEIF}"

public let kCGImagePropertyTIFFMake = "Make"
public let kCGImagePropertyTIFFModel = "Model"
public let kCGImagePropertyTIFFSoftware = "Software"
public let kCGImagePropertyTIFFDateTime = "DateTime"
public let kCGImagePropertyTIFFArtist = "Artist"
public let kCGImagePropertyTIFFCopyright = "Copyright"
public let kCGImagePropertyTIFFImageDescription = "ImageDescription"
public let kCGImagePropertyTIFFOrientation = "Orientation"

public let kCGImagePropertyExifExposureTime = "ExposureTime"
public let kCGImagePropertyExifFNumber = "FNumber"
public let kCGImagePropertyExifISOSpeedRatings = "ISOSpeedRatings"
public let kCGImagePropertyExifFocalLength = "FocalLength"
public let kCGImagePropertyExifFocalLenIn35mmFilm = "FocalLenIn35mmFilm"
public let kCGImagePropertyExifExposureBiasValue = "ExposureBiasValue"
public let kCGImagePropertyExifFlash = "Flash"
public let kCGImagePropertyExifDateTimeOriginal = "DateTimeOriginal"
public let kCGImagePropertyExifDateTimeDigitized = "DateTimeDigitized"
public let kCGImagePropertyExifSubsecTimeOriginal = "SubsecTimeOriginal"
public let kCGImagePropertyExifOffsetTimeOriginal = "OffsetTimeOriginal"
public let kCGImagePropertyExifColorSpace = "ColorSpace"
public let kCGImagePropertyExifPixelXDimension = "PixelXDimension"
public let kCGImagePropertyExifPixelYDimension = "PixelYDimension"
public let kCGImagePropertyExifLensMake = "LensMake"
public let kCGImagePropertyExifLensModel = "LensModel"
public let kCGImagePropertyExifLensSpecification = "LensSpecification"
public let kCGImagePropertyExifBrightnessValue = "BrightnessValue"
public let kCGImagePropertyExifUserComment = "UserComment"
public let kCGImagePropertyExifExposureProgram = "ExposureProgram"
public let kCGImagePropertyExifMeteringMode = "MeteringMode"
public let kCGImagePropertyExifWhiteBalance = "WhiteBalance"

public let kCGImagePropertyGPSVersion = "GPSVersion"
public let kCGImagePropertyGPSLatitudeRef = "LatitudeRef"
public let kCGImagePropertyGPSLatitude = "Latitude"
public let kCGImagePropertyGPSLongitudeRef = "LongitudeRef"
public let kCGImagePropertyGPSLongitude = "Longitude"
public let kCGImagePropertyGPSAltitudeRef = "AltitudeRef"
public let kCGImagePropertyGPSAltitude = "Altitude"
public let kCGImagePropertyGPSTimeStamp = "TimeStamp"
public let kCGImagePropertyGPSDateStamp = "DateStamp"
public let kCGImagePropertyGPSSpeedRef = "SpeedRef"
public let kCGImagePropertyGPSSpeed = "Speed"
public let kCGImagePropertyGPSImgDirectionRef = "ImgDirectionRef"
public let kCGImagePropertyGPSImgDirection = "ImgDirection"
public let kCGImagePropertyGPSHPositioningError = "HPositioningError"

/// Top-level keys accepted in `AVCapturePhotoSettings.metadata`.
let imageIOTopLevelKeys: Set<String> = [
    kCGImagePropertyOrientation, kCGImagePropertyPixelWidth, kCGImagePropertyPixelHeight,
    kCGImagePropertyDPIWidth, kCGImagePropertyDPIHeight, kCGImagePropertyColorModel, kCGImagePropertyProfileName,
    kCGImagePropertyDepth, kCGImagePropertyExifDictionary, kCGImagePropertyExifAuxDictionary,
    kCGImagePropertyTIFFDictionary, kCGImagePropertyGPSDictionary, kCGImagePropertyIPTCDictionary,
    kCGImagePropertyJFIFDictionary, kCGImagePropertyMakerAppleDictionary, kCGImagePropertyHEIFDictionary,
]
