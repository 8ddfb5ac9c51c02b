import CaptureCore
import Foundation

/// One parser for the format dictionaries of photo settings: `format` (processed photo),
/// `previewPhotoFormat`, `embeddedThumbnailPhotoFormat` and `rawEmbeddedThumbnailPhotoFormat`.
/// It reads keys and value types; each caller applies its own rules to the result.
struct SettingsFormat {
    /// Why a dictionary could not be read.
    enum Problem: Error, Equatable {
        case unreadable(key: String)
        case unknownKey(String)
        case widthWithoutHeight
        case nonPositiveSize
    }

    let codec: AVVideoCodecType?
    let pixelFormat: OSType?
    /// `AVVideoQualityKey` inside `AVVideoCompressionPropertiesKey`.
    let quality: Double?
    let hasCompressionProperties: Bool
    /// Width and height (both or neither), from `AVVideoWidthKey`/`HeightKey` or the `kCVPixelBuffer…` keys.
    let size: (width: Double, height: Double)?

    /// Parses `dictionary`, accepting only `allowedKeys` at the top level.
    init(_ dictionary: [String: Any], allowedKeys: Set<String>) throws(Problem) {
        for key in dictionary.keys.sorted() where !allowedKeys.contains(key) { throw .unknownKey(key) }
        if let value = dictionary[AVVideoCodecKey] {
            guard let codec = SettingsValue.codec(value) else { throw .unreadable(key: AVVideoCodecKey) }
            self.codec = codec
        } else {
            codec = nil
        }
        if let value = dictionary[kCVPixelBufferPixelFormatTypeKey] {
            guard let code = SettingsValue.osType(value) else { throw .unreadable(key: kCVPixelBufferPixelFormatTypeKey) }
            pixelFormat = code
        } else {
            pixelFormat = nil
        }
        var quality: Double?
        if let properties = dictionary[AVVideoCompressionPropertiesKey] {
            guard let compression = properties as? [String: Any] else { throw .unreadable(key: AVVideoCompressionPropertiesKey) }
            for key in compression.keys.sorted() where key != AVVideoQualityKey { throw .unknownKey(key) }
            if let value = compression[AVVideoQualityKey] {
                guard let number = SettingsValue.double(value) else { throw .unreadable(key: AVVideoQualityKey) }
                quality = number
            }
            hasCompressionProperties = true
        } else {
            hasCompressionProperties = false
        }
        self.quality = quality
        let width = (dictionary[AVVideoWidthKey] ?? dictionary[kCVPixelBufferWidthKey]).flatMap(SettingsValue.double)
        let height = (dictionary[AVVideoHeightKey] ?? dictionary[kCVPixelBufferHeightKey]).flatMap(SettingsValue.double)
        switch (width, height) {
        case (nil, nil): size = nil
        case let (w?, h?):
            guard w >= 1, h >= 1, w.isFinite, h.isFinite else { throw .nonPositiveSize }
            size = (w, h)
        default: throw .widthWithoutHeight
        }
    }

    /// `photo` fitted inside the requested box clamped to `limit`, or inside `box` when none was requested.
    func fitted(_ photo: Size, defaultBox box: Size, limit: Size) -> Size {
        guard let size else { return photo.fitted(within: box) }
        let w = Int(min(size.width, Double(limit.width))), h = Int(min(size.height, Double(limit.height)))
        return photo.fitted(within: Size(width: w, height: h))
    }

    /// The requested box clamped to `limit`, or nil when none was requested.
    func box(limit: Size) -> Size? {
        size.map { Size(width: Int(min($0.width, Double(limit.width))), height: Int(min($0.height, Double(limit.height)))) }
    }
}

extension SettingsFormat.Problem: CustomStringConvertible {
    var description: String {
        switch self {
        case .unreadable(let key): return "\(key) has a value of the wrong type"
        case .unknownKey(let key): return "\(key) is not a supported key"
        case .widthWithoutHeight: return "width and height must be given together"
        case .nonPositiveSize: return "width and height must be positive"
        }
    }
}
