import CaptureCore

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

    /// The curve sampled over linear 0…1 into 8-bit codes, for the pipeline's last stage.
    func table8() -> [UInt8] {
        let n = ToneCurve.tableSize
        return (0..<n).map { i in
            let v = apply(Float(i) / Float(n - 1))
            return UInt8(min(max((v * 255).rounded(), 0), 255))
        }
    }
}
