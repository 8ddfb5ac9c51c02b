import CaptureCore
import Foundation

/// What a JPEG's frame header says, read without decoding the image — by libjpeg (`JPEGDecoder.header`), or from the
/// file's bytes for what libjpeg-turbo 2.1 cannot open (`frame(in:)`) (OpenCapture addition).
public struct JPEGHeader: Sendable, Equatable {
    public var size: Size
    /// Progressive (SOF2) rather than sequential scans.
    public var isProgressive: Bool
    /// Colour components: 1 grey, 3 YCbCr or RGB, 4 CMYK or YCCK.
    public var components: Int
    /// Three components stored as R, G, B (an Adobe marker's transform 0, or components named R, G, B) rather than
    /// YCbCr.
    public var storesRGB: Bool
    /// For three components whose two chroma (or second and third) planes sample alike: how many luma samples each
    /// of theirs spans, across and down ((2, 2) for 4:2:0); nil for other layouts.
    public var chromaSampling: SIMD2<Int>?
    /// Bits per sample (8 for the JPEGs libjpeg-turbo decodes here; 12 or 16 for some medical, scientific and raw
    /// files).
    public var bitsPerSample: Int
    /// Lossless (SOF3 or SOF11, as in DNG tiles) rather than DCT-coded.
    public var isLossless: Bool
    /// Arithmetic-coded (SOF9–SOF15) rather than Huffman-coded.
    public var isArithmetic: Bool
    /// Hierarchical (differential frames, SOF5–7 and SOF13–15).
    public var isHierarchical: Bool

    public init(size: Size, isProgressive: Bool, components: Int, storesRGB: Bool = false, chromaSampling: SIMD2<Int>?,
                bitsPerSample: Int = 8, isLossless: Bool = false, isArithmetic: Bool = false, isHierarchical: Bool = false) {
        self.size = size
        self.isProgressive = isProgressive
        self.components = components
        self.storesRGB = storesRGB
        self.chromaSampling = chromaSampling
        self.bitsPerSample = bitsPerSample
        self.isLossless = isLossless
        self.isArithmetic = isArithmetic
        self.isHierarchical = isHierarchical
    }

    /// Whether libjpeg-turbo 2.1 (8-bit, as Debian 12 ships it) can decode the pixels: 8-bit DCT frames, not
    /// hierarchical.
    public var isDecodableHere: Bool { bitsPerSample == 8 && !isLossless && !isHierarchical }

    /// The frame header read from the file's own bytes (its first SOF segment), for JPEGs libjpeg-turbo cannot open
    /// (12- and 16-bit, lossless, hierarchical, arithmetic-coded). `storesRGB` follows the component ids only (an Adobe
    /// marker is not read). Throws a `MediaFormatError` when there is no readable, valid frame header (one frame; 2–16
    /// bits, 8 or 12 for DCT frames; 1–4 components sampled 1–4 times each way; a width).
    public static func frame(in data: Data) throws -> JPEGHeader {
        let bytes = [UInt8](data)
        // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
        let frames = try JPEGSegments.segments(in: bytes).filter {
            (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker)
        }
        guard let frame = frames.first else { throw MediaFormatError.invalidImage("no JPEG frame header") }
        let marker = frame.marker, lossless = [0xC3, 0xC7, 0xCB, 0xCF].contains(marker)
        let hierarchical = [0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF].contains(marker)
        guard frames.count == 1 || hierarchical else { throw MediaFormatError.invalidImage("JPEG with \(frames.count) frame headers") }
        let p = frame.payload
        guard p.count >= 6 else { throw MediaFormatError.invalidImage("JPEG frame header of \(p.count) bytes") }
        let components = Int(bytes[p.lowerBound + 5])
        guard components > 0, p.count >= 6 + 3 * components else {
            throw MediaFormatError.invalidImage("JPEG frame header for \(components) components is \(p.count) bytes")
        }
        let height = Int(bytes[p.lowerBound + 1]) << 8 | Int(bytes[p.lowerBound + 2])
        let width = Int(bytes[p.lowerBound + 3]) << 8 | Int(bytes[p.lowerBound + 4])
        let factors = (0..<components).map { i -> (id: UInt8, h: Int, v: Int) in
            let entry = p.lowerBound + 6 + 3 * i
            return (bytes[entry], Int(bytes[entry + 1] >> 4), Int(bytes[entry + 1] & 0x0F))
        }
        let precision = Int(bytes[p.lowerBound])
        guard lossless ? (2...16).contains(precision) : [8, 12].contains(precision) else {
            throw MediaFormatError.invalidImage("JPEG frame of \(precision)-bit samples")
        }
        guard components <= 4, width > 0, factors.allSatisfy({ (1...4).contains($0.h) && (1...4).contains($0.v) }) else {
            throw MediaFormatError.invalidImage("JPEG frame header with impossible components or size")
        }
        let sampling = samplingRatio(factors.map { SIMD2($0.h, $0.v) })
        return JPEGHeader(size: Size(width: width, height: height), isProgressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(marker),
                          components: components, storesRGB: components == 3 && factors.map { $0.id } == Array("RGB".utf8),
                          chromaSampling: sampling, bitsPerSample: precision, isLossless: lossless, isArithmetic: marker >= 0xC9,
                          isHierarchical: hierarchical)
    }

    /// `chromaSampling` from the components' (horizontal, vertical) sampling factors: for three components whose second
    /// and third sample alike and divide the first's, the first's over theirs; else nil.
    static func samplingRatio(_ factors: [SIMD2<Int>]) -> SIMD2<Int>? {
        guard factors.count == 3, factors[1] == factors[2], factors[1].x > 0, factors[1].y > 0,
              factors[0].x % factors[1].x == 0, factors[0].y % factors[1].y == 0 else { return nil }
        return factors[0] / factors[1]
    }

    /// The chroma subsampling, when it is one of the three OpenCapture writes.
    public var chromaSubsampling: ChromaSubsampling? {
        switch chromaSampling {
        case SIMD2(1, 1)?: .yuv444
        case SIMD2(2, 1)?: .yuv422
        case SIMD2(2, 2)?: .yuv420
        default: nil
        }
    }
}
