import CaptureCore

/// Why a depth data, portrait matte or camera calibration operation was refused (OpenCapture
/// addition). Apple raises an Objective-C exception for some of these (converting to an
/// unavailable type) and throws an `NSError` for others; OpenCapture throws this error, or reports
/// it to `DeviceDiagnostics` where Apple's method cannot throw.
public enum DepthDataError: DescribedError, Equatable, Sendable {
    /// `converting(toDepthDataType:)` with a type not in `availableDepthDataTypes`.
    case unsupportedDepthDataType(OSType)
    /// A pixel buffer whose format is not one of the four depth/disparity types (depth data) or
    /// not `kCVPixelFormatType_OneComponent8` (portrait matte).
    case unsupportedPixelFormat(OSType)
    /// A lens-distortion lookup table whose byte count is not a whole number of `Float`s.
    case invalidLookupTable(byteCount: Int)
    /// Reference dimensions that are not positive whole pixel sizes.
    case invalidReferenceDimensions(width: Double, height: Double)
    /// `init(fromDictionaryRepresentation:)` with a dictionary that is not an auxiliary-data info
    /// dictionary of the right kind (the reason says which entry).
    case invalidDictionary(String)

    public var description: String {
        switch self {
        case .unsupportedDepthDataType(let type):
            return "depth data type \(fourCharacterText(type)) is not in availableDepthDataTypes"
        case .unsupportedPixelFormat(let type):
            return "pixel format \(fourCharacterText(type)) is not supported here"
        case .invalidLookupTable(let count):
            return "a lens distortion lookup table of \(count) bytes is not a whole number of Floats"
        case .invalidReferenceDimensions(let width, let height):
            return "reference dimensions \(width)×\(height) are not positive whole pixel sizes"
        case .invalidDictionary(let why):
            return "not an auxiliary data dictionary: \(why)"
        }
    }
}

/// 'hdis' for printable codes, the number otherwise.
func fourCharacterText(_ code: OSType) -> String {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (24 - 8 * UInt32($0))) }
    guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return String(code) }
    return "'" + String(decoding: bytes, as: UTF8.self) + "'"
}
