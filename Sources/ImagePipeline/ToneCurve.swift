import CaptureCore
import Foundation

/// Maps scene-linear light (1.0 = white) to display-encoded values 0…1.
public enum ToneCurve: Sendable, Hashable {
    /// Only the sRGB transfer curve.
    case linear
    /// A phone-like filmic look: slight toe, a little midtone contrast and a gentle shoulder, then the sRGB transfer.
    case standard

    /// Scene-linear value → display-encoded 0…1 (values outside 0…1 clip).
    public func apply(_ linear: Float) -> Float {
        let encoded = SRGBTransfer.encode(linear)
        switch self {
        case .linear:
            return encoded
        case .standard:
            // Blend the identity with a smoothstep in the encoded domain: slope 1 − a at both ends
            // (toe and shoulder), 1 + a/2 in the middle; monotonic, 0 → 0 and 1 → 1.
            let a: Float = 0.22
            let s = encoded * encoded * (3 - 2 * encoded)
            return (1 - a) * encoded + a * s
        }
    }

    /// Entries in `table8`, spanning linear 0…1.
    static let tableSize = 16_384
    /// Entries in `table8(headroom:)` for a headroom above 0, spanning linear 0…2^headroom.
    static let headroomTableSize = 65_536

    /// Where the highlight roll-off starts, linear.
    static let rollOffKnee: Float = 0.55

    /// Highlight roll-off for a frame brightened by `headroom` EV: identity up to `rollOffKnee`, then an extended
    /// Reinhard shoulder that takes 2^headroom (the sensor's full scale after the brightening) to 1, with slope 1
    /// at the knee. With headroom 0 it is the identity (values above 1 clip later).
    public static func rollOff(_ x: Float, headroom: Float) -> Float {
        let top = Float(pow(2, Double(headroom))), k = rollOffKnee
        guard top > 1, x > k else { return x }
        let u = (x - k) / (1 - k), limit = (top - k) / (1 - k)
        return k + (1 - k) * min(1, u * (1 + u / (limit * limit)) / (1 + u))
    }

    /// The curve sampled over linear 0…1 into 8-bit codes, for the pipeline's last stage.
    func table8() -> [UInt8] {
        let n = ToneCurve.tableSize
        return Self.table(count: n) { i in
            let v = apply(Float(i) / Float(n - 1))
            return UInt8(min(max((v * 255).rounded(), 0), 255))
        }
    }

    /// The roll-off and the curve sampled over linear 0…2^headroom into 8-bit codes (`headroomTableSize` entries).
    func table8(headroom: Double) -> [UInt8] {
        let n = ToneCurve.headroomTableSize, top = Float(pow(2, headroom))
        return Self.table(count: n) { i in
            let v = apply(ToneCurve.rollOff(Float(i) / Float(n - 1) * top, headroom: Float(headroom)))
            return UInt8(min(max((v * 255).rounded(), 0), 255))
        }
    }

    /// `[entry(0), …, entry(count − 1)]`, on all cores (a photo's 65,536-entry table was a serial millisecond and more).
    private static func table(count: Int, _ entry: (Int) -> UInt8) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let out = buffer.baseAddress!
            Parallel.forEachBand(height: count, bandHeight: 4096) { rows in
                for i in rows { out[i] = entry(i) }
            }
            initialized = count
        }
    }
}
