import Foundation

/// The sRGB (IEC 61966-2-1) transfer curve, shared by sRGB and Display P3.
public enum SRGBTransfer {
    /// Linear [0, 1] → encoded [0, 1].
    @inline(__always)
    public static func encode(_ linear: Float) -> Float {
        let x = min(max(linear, 0), 1)
        return x <= 0.0031308 ? 12.92 * x : 1.055 * powf(x, 1 / 2.4) - 0.055
    }

    /// Encoded [0, 1] → linear [0, 1].
    @inline(__always)
    public static func decode(_ encoded: Float) -> Float {
        let x = min(max(encoded, 0), 1)
        return x <= 0.04045 ? x / 12.92 : powf((x + 0.055) / 1.055, 2.4)
    }

    /// 256-entry table: 8-bit encoded value → linear Float.
    public static let decodeTable8: [Float] = (0..<256).map { decode(Float($0) / 255) }
}
