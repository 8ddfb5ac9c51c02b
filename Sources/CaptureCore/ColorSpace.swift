/// An RGB output colour space: primaries with a D65 white and the sRGB transfer curve
/// (Display P3 shares sRGB's curve).
public enum ColorSpace: String, Sendable, CaseIterable, Codable {
    case sRGB
    case displayP3

    /// Linear RGB of this space → CIE XYZ (D65).
    public var toXYZ: Matrix3 {
        switch self {
        case .sRGB:
            return Matrix3([[0.4124564, 0.3575761, 0.1804375],
                            [0.2126729, 0.7151522, 0.0721750],
                            [0.0193339, 0.1191920, 0.9503041]])
        case .displayP3:
            return Matrix3([[0.4865709, 0.2656677, 0.1982173],
                            [0.2289746, 0.6917385, 0.0792869],
                            [0.0000000, 0.0451134, 1.0439444]])
        }
    }

    /// CIE XYZ (D65) → linear RGB of this space.
    public var fromXYZ: Matrix3 { toXYZ.inverse! }

    /// Linear RGB of `source` → linear RGB of this space.
    public func conversion(from source: ColorSpace) -> Matrix3 { fromXYZ * source.toXYZ }
}
