// Output-settings dictionary keys from AVVideoSettings.h. Each value is the key's own name,
// as on Apple platforms.

/// Key for the codec, an `AVVideoCodecType` raw value.
public let AVVideoCodecKey: String = "AVVideoCodecKey"
/// Key for a nested dictionary of compression properties, e.g. `AVVideoQualityKey`.
public let AVVideoCompressionPropertiesKey: String = "AVVideoCompressionPropertiesKey"
/// Key for the compression quality, 0.0 (most compression) to 1.0 (least).
public let AVVideoQualityKey: String = "AVVideoQualityKey"
/// Key for the output width in pixels.
public let AVVideoWidthKey: String = "AVVideoWidthKey"
/// Key for the output height in pixels.
public let AVVideoHeightKey: String = "AVVideoHeightKey"
/// Key for the bit depth of Apple ProRAW photos.
public let AVVideoAppleProRAWBitDepthKey: String = "AVVideoAppleProRAWBitDepthKey"
