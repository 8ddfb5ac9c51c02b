import CTIFF
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
