/// A four-character code as used by CoreVideo pixel formats and ISO-BMFF boxes ('BGRA', 'rgg4', 'hdis').
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Builds a code from exactly four ASCII characters; other strings give nil.
    public init?(_ string: String) {
        let bytes = Array(string.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = bytes.reduce(0) { ($0 << 8) | UInt32($1) }
    }

    public init(stringLiteral value: String) {
        guard let code = FourCC(value) else { preconditionFailure("FourCC literal must have four ASCII characters: \(value)") }
        self = code
    }

    /// The four characters, or the decimal value for codes that are not printable (e.g. 24 for 24RGB).
    public var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * UInt32($0))) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return String(rawValue) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension FourCC {
    public static let bgra32: FourCC = "BGRA"
    public static let yuv420BiPlanarVideoRange: FourCC = "420v"
    public static let yuv420BiPlanarFullRange: FourCC = "420f"
    public static let bayer14RGGB: FourCC = "rgg4"
    public static let bayer14GRBG: FourCC = "grb4"
    public static let bayer14GBRG: FourCC = "gbr4"
    public static let bayer14BGGR: FourCC = "bgg4"
    public static let disparityFloat16: FourCC = "hdis"
    public static let disparityFloat32: FourCC = "fdis"
    public static let depthFloat16: FourCC = "hdep"
    public static let depthFloat32: FourCC = "fdep"
    public static let oneComponent8: FourCC = "L008"
}
