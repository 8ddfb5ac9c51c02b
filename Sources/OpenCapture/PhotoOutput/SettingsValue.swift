import Foundation

/// Reads the loosely typed values of Apple's settings dictionaries (numbers may arrive as Double,
/// Float, Int, CGFloat or NSNumber; codecs as `AVVideoCodecType` or `String`).
enum SettingsValue {
    static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as Int: return Double(v)
        case let v as Int32: return Double(v)
        case let v as UInt32: return Double(v)
        case let v as CGFloat: return Double(v)
        case let v as NSNumber: return v.doubleValue
        default: return nil
        }
    }

    static func osType(_ value: Any) -> OSType? {
        switch value {
        case let v as UInt32: return v
        case let v as Int where v >= 0 && v <= Int(UInt32.max): return UInt32(v)
        case let v as NSNumber: return v.uint32Value
        default: return nil
        }
    }

    static func codec(_ value: Any) -> AVVideoCodecType? {
        (value as? AVVideoCodecType) ?? (value as? String).map { AVVideoCodecType(rawValue: $0) }
    }
}
