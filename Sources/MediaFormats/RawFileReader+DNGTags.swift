import CTIFF
import CaptureCore
import Foundation

extension RawFileReader {
    /// DNG NoiseProfile (IFD0, tag 51041) as one (scale, offset) per colour, read with libtiff;
    /// empty when absent or malformed.
    static func dngNoiseProfile(_ bytes: UnsafeRawBufferPointer) -> [(scale: Double, offset: Double)] {
        _ = dngTagsRegistered
        let file = TIFFMemoryFile(borrowing: bytes)
        guard let tif = file.openForReading() else { return [] }
        defer { TIFFClose(tif) }
        var count: UInt16 = 0
        var values: UnsafeRawPointer?
        guard opencapture_tiff_get_counted(tif, ttag_t(DNGWriter.tagNoiseProfile), &count, &values) == 1,
              let values, count == 2 || count == 6 else { return [] }
        let v = Array(UnsafeBufferPointer(start: values.assumingMemoryBound(to: Double.self), count: Int(count)))
        guard v.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return [] }
        let pairs = stride(from: 0, to: v.count, by: 2).map { (scale: v[$0], offset: v[$0 + 1]) }
        return pairs.count == 1 ? Array(repeating: pairs[0], count: 3) : pairs
    }
}

extension RawFileReader {
    /// The lens opcodes (OpcodeList2 FixVignetteRadial, OpcodeList3 WarpRectilinear) of a DNG, read by `reader` (the
    /// one that validated its directories) from its raw image directory — the first full-resolution CFA directory
    /// among IFD0 and its SubIFDs — for the visible `size`; nil when there are none or they cannot be read (the
    /// opcodes are optional, so the mosaic is still developed).
    static func dngLensCorrection(_ reader: TIFFTagReader, size: Size) -> LensCorrection? {
        guard let ifd0 = try? reader.mainDirectories(limit: 1).first else { return nil }
        let candidates = [ifd0] + reader.subDirectories(of: ifd0)
        let rawDirectory = candidates.first { ($0.integer(254) ?? 0) == 0 && $0.integer(262) == 32803 } ?? ifd0
        let list2 = rawDirectory.bytes(UInt16(DNGWriter.tagOpcodeList2)), list3 = rawDirectory.bytes(UInt16(DNGWriter.tagOpcodeList3))
        guard list2 != nil || list3 != nil else { return nil }
        return try? DNGOpcodeList.lensCorrection(list2: list2, list3: list3, size: size)
    }
}
