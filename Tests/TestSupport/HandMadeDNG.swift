import Foundation

/// A minimal DNG assembled by hand (little-endian, one IFD, uncompressed 16-bit samples in one strip), for tests that
/// need a file OpenCapture's own `DNGWriter` does not write: a linear DNG (PhotometricInterpretation LinearRaw, three
/// samples a pixel, as Apple ProRAW, Adobe DNG Converter's linear option, PiDNG and tifffile store one), or an RGGB
/// mosaic of the same scene with the same colour tags, so the two can be developed side by side.
public struct HandMadeDNG: Sendable {
    public var width: Int
    public var height: Int
    /// Samples row by row: three per pixel (camera R, G, B) for a linear DNG, one per photosite (RGGB) for a mosaic.
    public var samples: [UInt16]
    /// LinearRaw (true) or CFA.
    public var linear: Bool
    /// Samples per pixel written in SamplesPerPixel (nil: 3 for linear, 1 for a mosaic): to make a damaged file.
    public var samplesPerPixelTag: Int? = nil
    /// BlackLevel: one value, or (linear) one per channel.
    public var blackLevel: [Int] = [0]
    public var whiteLevel = 65_535
    /// ColorMatrix1 (XYZ → camera, row-major) for CalibrationIlluminant1 D65; the default makes camera RGB linear sRGB.
    public var colorMatrix: [Double] = HandMadeDNG.xyzToLinearSRGB
    public var asShotNeutral: [Double] = [1, 1, 1]
    public var baselineExposure: Double? = nil
    public var orientation = 1
    public var make = "Test"
    public var model = "Hand-made DNG"

    /// XYZ (D65) → linear sRGB (IEC 61966-2-1).
    public static let xyzToLinearSRGB = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]

    public init(width: Int, height: Int, samples: [UInt16], linear: Bool) {
        precondition(samples.count == width * height * (linear ? 3 : 1), "sample count")
        self.width = width
        self.height = height
        self.samples = samples
        self.linear = linear
    }

    /// The file.
    public var bytes: [UInt8] {
        let spp = linear ? 3 : 1
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        func rational(_ v: Double) -> [UInt8] { u32(Int(Int32((v * 10_000).rounded())) & 0xFFFF_FFFF) + u32(10_000) }
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }
        // (tag, type, count, value bytes); the strip offset is patched in below.
        var entries: [(UInt16, UInt16, Int, [UInt8])] = [
            (254, 4, 1, u32(0)), (256, 4, 1, u32(width)), (257, 4, 1, u32(height)),
            (258, 3, spp, (0..<spp).flatMap { _ in u16(16) }), (259, 3, 1, u16(1)),
            (262, 3, 1, u16(linear ? 34892 : 32803)), (271, 2, make.utf8.count + 1, ascii(make)),
            (272, 2, model.utf8.count + 1, ascii(model)), (273, 4, 1, u32(0)), (274, 3, 1, u16(orientation)),
            (277, 3, 1, u16(samplesPerPixelTag ?? spp)), (278, 4, 1, u32(height)), (279, 4, 1, u32(samples.count * 2)),
            (284, 3, 1, u16(1)),
            (50706, 1, 4, [1, 4, 0, 0]), (50708, 2, make.utf8.count + model.utf8.count + 2, ascii(make + " " + model)),
            (50714, 3, blackLevel.count, blackLevel.flatMap(u16)), (50717, 4, 1, u32(whiteLevel)),
            (50721, 10, 9, colorMatrix.flatMap(rational)), (50728, 5, 3, asShotNeutral.flatMap(rational)),
            (50778, 3, 1, u16(21)),
        ]
        if !linear { entries += [(33421, 3, 2, u16(2) + u16(2)), (33422, 1, 4, [0, 1, 1, 2])] }
        if let baselineExposure { entries.append((50730, 10, 1, rational(baselineExposure))) }
        entries.sort { $0.0 < $1.0 }
        let ifdSize = 2 + 12 * entries.count + 4
        var extra: [UInt8] = [], offsets: [Int] = []
        for entry in entries {
            offsets.append(entry.3.count > 4 ? 8 + ifdSize + extra.count : -1)
            if entry.3.count > 4 { extra += entry.3 + (entry.3.count % 2 == 1 ? [0] : []) }
        }
        let stripOffset = 8 + ifdSize + extra.count
        var out: [UInt8] = [0x49, 0x49, 42, 0] + u32(8) + u16(entries.count)
        for (entry, offset) in zip(entries, offsets) {
            let value = entry.0 == 273 ? u32(stripOffset) : entry.3
            out += u16(Int(entry.0)) + u16(Int(entry.1)) + u32(entry.2)
            out += offset >= 0 ? u32(offset) : value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        out += u32(0) + extra
        for v in samples { out += u16(Int(v)) }
        return out
    }
}
