// Video codec codes from CMFormatDescription.h.

/// A four-character code naming a video codec (CMFormatDescription.h `CMVideoCodecType`).
public typealias CMVideoCodecType = FourCharCode

/// JPEG ('jpeg').
public let kCMVideoCodecType_JPEG: CMVideoCodecType = 0x6A70_6567
/// HEVC / H.265 ('hvc1').
public let kCMVideoCodecType_HEVC: CMVideoCodecType = 0x6876_6331
/// H.264 / AVC ('avc1').
public let kCMVideoCodecType_H264: CMVideoCodecType = 0x6176_6331
