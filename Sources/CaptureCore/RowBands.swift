/// How rows `0..<height` are cut into consecutive bands of `bandHeight` rows (the last band may be
/// shorter). The cut depends on `height` and `bandHeight` only, never on the machine, so per-band
/// random seeds give the same pixels everywhere. Every row lies in exactly one band.
public struct RowBands: RandomAccessCollection, Hashable, Sendable {
    /// Rows to cover; zero or negative gives no bands.
    public let height: Int
    /// Rows per band, at least 1.
    public let bandHeight: Int

    /// Bands of `bandHeight` rows (values below 1 count as 1) covering `0..<height`.
    public init(height: Int, bandHeight: Int) {
        self.height = Swift.max(0, height)
        self.bandHeight = Swift.max(1, bandHeight)
    }

    /// The bands of `height` rows when they are spread over at most `maxCount` bands of equal size
    /// (all but the last), e.g. to give each worker one run of consecutive items.
    public init(height: Int, maxCount: Int) {
        let h = Swift.max(0, height), n = Swift.max(1, Swift.min(maxCount, h))
        self.init(height: h, bandHeight: h == 0 ? 1 : (h + n - 1) / n)
    }

    public var startIndex: Int { 0 }
    /// The number of bands: ⌈height / bandHeight⌉.
    public var endIndex: Int { height / bandHeight + (height % bandHeight == 0 ? 0 : 1) }

    /// The rows of band `index`.
    public subscript(index: Int) -> Range<Int> {
        precondition(index >= 0 && index < endIndex, "band index out of range")
        let start = index * bandHeight
        return start..<(start + Swift.min(bandHeight, height - start))
    }
}
