/// The 2×2 colour-filter-array layout of a Bayer sensor, named from the top-left pixel along the first row.
public enum CFAPattern: String, Sendable, CaseIterable, Codable {
    case rggb, grbg, gbrg, bggr

    /// Colour index (0 = red, 1 = green, 2 = blue) of the filter over pixel (x, y).
    @inline(__always)
    public func color(x: Int, y: Int) -> Int {
        colors[(y & 1) << 1 | (x & 1)]
    }

    /// The four colour indices in row-major order of the 2×2 tile, as DNG's CFAPattern tag writes them.
    public var colors: [Int] {
        switch self {
        case .rggb: return [0, 1, 1, 2]
        case .grbg: return [1, 0, 2, 1]
        case .gbrg: return [1, 2, 0, 1]
        case .bggr: return [2, 1, 1, 0]
        }
    }

    /// The CoreVideo 14-bit Bayer pixel format with this layout.
    public var bayer14FourCC: FourCC {
        switch self {
        case .rggb: return .bayer14RGGB
        case .grbg: return .bayer14GRBG
        case .gbrg: return .bayer14GBRG
        case .bggr: return .bayer14BGGR
        }
    }

    /// The pattern seen when the frame is cropped by an (x, y) offset.
    public func shifted(x: Int, y: Int) -> CFAPattern {
        let c = colors
        let tile = [c[((y & 1) << 1) | (x & 1)], c[((y & 1) << 1) | ((x + 1) & 1)],
                    c[(((y + 1) & 1) << 1) | (x & 1)], c[(((y + 1) & 1) << 1) | ((x + 1) & 1)]]
        return CFAPattern.allCases.first { $0.colors == tile }!
    }
}
