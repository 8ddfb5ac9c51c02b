// Pixel format codes and attribute keys from CVPixelBuffer.h.

/// 32-bit ARGB, 8 bits per component ('\0\0\0 ' = 0x20). OpenCapture cannot allocate it;
/// `CVPixelBufferCreate` returns `kCVReturnInvalidPixelFormat`.
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// 32-bit BGRA, 8 bits per component, alpha last ('BGRA').
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// 24-bit RGB, 8 bits per component (0x18).
public let kCVPixelFormatType_24RGB: OSType = 0x0000_0018
/// Bi-planar 4:2:0 Y'CbCr, video range: luma plane then interleaved CbCr plane ('420v').
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// Bi-planar 4:2:0 Y'CbCr, full range ('420f').
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// Bayer 14-bit, little-endian, packed in 16 bits, GRBG pattern ('grb4').
public let kCVPixelFormatType_14Bayer_GRBG: OSType = 0x6772_6234
/// Bayer 14-bit, little-endian, packed in 16 bits, RGGB pattern ('rgg4').
public let kCVPixelFormatType_14Bayer_RGGB: OSType = 0x7267_6734
/// Bayer 14-bit, little-endian, packed in 16 bits, BGGR pattern ('bgg4').
public let kCVPixelFormatType_14Bayer_BGGR: OSType = 0x6267_6734
/// Bayer 14-bit, little-endian, packed in 16 bits, GBRG pattern ('gbr4').
public let kCVPixelFormatType_14Bayer_GBRG: OSType = 0x6762_7234
/// Disparity (1/metres) as IEEE 754 half floats ('hdis').
public let kCVPixelFormatType_DisparityFloat16: OSType = 0x6864_6973
/// Disparity (1/metres) as IEEE 754 floats ('fdis').
public let kCVPixelFormatType_DisparityFloat32: OSType = 0x6664_6973
/// Depth (metres) as IEEE 754 half floats ('hdep').
public let kCVPixelFormatType_DepthFloat16: OSType = 0x6864_6570
/// Depth (metres) as IEEE 754 floats ('fdep').
public let kCVPixelFormatType_DepthFloat32: OSType = 0x6664_6570
/// One 8-bit component, e.g. a luma or matte image ('L008').
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038

/// Attribute key for a pixel format code or an array of them. Apple's constant is a `CFString`;
/// here it is a `String`, so `kCVPixelBufferPixelFormatTypeKey as String` still compiles.
public let kCVPixelBufferPixelFormatTypeKey: String = "PixelFormatType"
/// Attribute key for the buffer width in pixels. `String` instead of Apple's `CFString`.
public let kCVPixelBufferWidthKey: String = "Width"
/// Attribute key for the buffer height in pixels. `String` instead of Apple's `CFString`.
public let kCVPixelBufferHeightKey: String = "Height"
/// Attribute key for the row alignment in bytes. `String` instead of Apple's `CFString`; ignored
/// by OpenCapture, whose rows are always 64-byte aligned.
public let kCVPixelBufferBytesPerRowAlignmentKey: String = "BytesPerRowAlignment"
