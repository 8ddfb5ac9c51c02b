import CaptureCore
import Foundation
import MediaFormats

/// The one layout of ImageIO's auxiliary-data info dictionary (what `CGImageSourceCopyAuxiliaryDataInfoAtIndex`
/// returns and `dictionaryRepresentation(forAuxiliaryDataType:)` gives): the pixel bytes, their description
/// (Width, Height, BytesPerRow, PixelFormat) and the XMP packet of Apple's depth or matte fields.
enum AuxiliaryDataDictionary {
    static let widthKey = "Width", heightKey = "Height", bytesPerRowKey = "BytesPerRow", pixelFormatKey = "PixelFormat"

    /// The dictionary for a buffer's first plane, rows packed (BytesPerRow = width × bytes per pixel).
    static func make(_ buffer: PixelBuffer, bytesPerPixel: Int, metadata: AuxiliaryImageMetadata) -> [AnyHashable: Any]? {
        guard let base = buffer.baseAddress() else { return nil }
        let rowBytes = buffer.width * bytesPerPixel
        var bytes = Data(count: rowBytes * buffer.height)
        bytes.withUnsafeMutableBytes { out in
            for y in 0..<buffer.height {
                out.baseAddress!.advanced(by: y * rowBytes).copyMemory(from: base + y * buffer.bytesPerRow, byteCount: rowBytes)
            }
        }
        let description: [AnyHashable: Any] = [widthKey: buffer.width, heightKey: buffer.height, bytesPerRowKey: rowBytes,
                                               pixelFormatKey: Int(buffer.pixelFormat.rawValue)]
        return [kCGImageAuxiliaryDataInfoData: bytes, kCGImageAuxiliaryDataInfoDataDescription: description,
                kCGImageAuxiliaryDataInfoMetadata: DepthXMP.packet(metadata)]
    }

    /// The pieces of a dictionary: a buffer of the described format filled from the bytes, and the
    /// parsed XMP (empty metadata when there is none). Throws `DepthDataError.invalidDictionary`
    /// for a missing or mistyped entry, a size that does not fit the bytes, or a format other than
    /// `allowed`.
    static func read(_ dictionary: [AnyHashable: Any], allowed: (OSType) -> Int?) throws
        -> (buffer: PixelBuffer, metadata: AuxiliaryImageMetadata) {
        func fail(_ why: String) -> DepthDataError { .invalidDictionary(why) }
        guard let bytes = (dictionary[kCGImageAuxiliaryDataInfoData] as? Data)
                ?? (dictionary[kCGImageAuxiliaryDataInfoData] as? NSData).map({ Data(referencing: $0) }) else {
            throw fail("kCGImageAuxiliaryDataInfoData is missing or not Data")
        }
        guard let description = dictionary[kCGImageAuxiliaryDataInfoDataDescription] as? [AnyHashable: Any] else {
            throw fail("kCGImageAuxiliaryDataInfoDataDescription is missing or not a dictionary")
        }
        func integer(_ key: String) throws -> Int {
            switch description[key] {
            case let value as Int: return value
            case let value as UInt32: return Int(value)
            case let value as NSNumber: return value.intValue
            default: throw fail("the data description has no integer \(key)")
            }
        }
        let width = try integer(widthKey), height = try integer(heightKey), rowBytes = try integer(bytesPerRowKey)
        let format = try integer(pixelFormatKey)
        guard let type = OSType(exactly: format), let bytesPerPixel = allowed(type) else {
            throw fail("pixel format \(fourCharacterText(OSType(truncatingIfNeeded: format))) is not accepted here")
        }
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { throw fail("size \(width)×\(height)") }
        let (packed, overflow) = width.multipliedReportingOverflow(by: bytesPerPixel)
        guard !overflow, rowBytes >= packed else { throw fail("BytesPerRow \(rowBytes) is less than \(width) pixels") }
        let (total, overflow2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow2, bytes.count >= total - (rowBytes - packed) else {
            throw fail("\(bytes.count) bytes do not hold \(width)×\(height) rows of \(rowBytes) bytes")
        }
        guard let buffer = PixelBuffer(width: width, height: height, pixelFormat: FourCC(rawValue: type)),
              let base = buffer.baseAddress() else { throw fail("cannot make a \(width)×\(height) buffer") }
        bytes.withUnsafeBytes { input in
            for y in 0..<height {
                (base + y * buffer.bytesPerRow).copyMemory(from: input.baseAddress!.advanced(by: y * rowBytes), byteCount: packed)
            }
        }
        var metadata = AuxiliaryImageMetadata()
        if let xmp = dictionary[kCGImageAuxiliaryDataInfoMetadata] {
            guard let packet = (xmp as? Data) ?? (xmp as? NSData).map({ Data(referencing: $0) }) else {
                throw fail("kCGImageAuxiliaryDataInfoMetadata is not XMP Data")
            }
            do { metadata = try DepthXMP.parse(packet) } catch { throw fail("its XMP: \(error)") }
        }
        return (buffer, metadata)
    }
}
