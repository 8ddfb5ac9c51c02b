/// One value per square tile of an image (row-major, `columns` × `rows` tiles of `tileSize` pixels),
/// read back per pixel by bilinear interpolation between tile centres (clamped at the borders): how
/// multi-frame merges carry per-tile weights and displacements to pixels.
public struct TileGrid: Sendable, Equatable {
    /// Tile side in pixels.
    public let tileSize: Int
    public let columns: Int
    public let rows: Int
    /// `columns × rows` values, row-major.
    public var values: [Float]

    /// A grid of `columns × rows` tiles of `tileSize` pixels holding `values` (padded with 1 or cut to fit).
    public init(tileSize: Int, columns: Int, rows: Int, values: [Float]) {
        self.tileSize = max(1, tileSize)
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        let count = self.columns * self.rows
        self.values = values.count >= count ? Array(values.prefix(count)) : values + Array(repeating: 1, count: count - values.count)
    }

    /// The grid of `tileSize` tiles covering a `width` × `height` image (partial tiles at the right and
    /// bottom count as tiles), every value `value`.
    public init(tileSize: Int, width: Int, height: Int, value: Float) {
        let t = max(1, tileSize)
        self.init(tileSize: t, columns: (max(1, width) + t - 1) / t, rows: (max(1, height) + t - 1) / t,
                  values: Array(repeating: value, count: ((max(1, width) + t - 1) / t) * ((max(1, height) + t - 1) / t)))
    }

    /// The value of tile (column, row).
    public subscript(column: Int, row: Int) -> Float {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }

    /// The value at pixel (x, y): bilinear between the centres of the four nearest tiles.
    public func value(x: Double, y: Double) -> Float {
        let (c0, c1, tx) = Self.span(x, count: columns, tile: tileSize)
        let (r0, r1, ty) = Self.span(y, count: rows, tile: tileSize)
        let top = self[c0, r0] * (1 - tx) + self[c1, r0] * tx
        let bottom = self[c0, r1] * (1 - tx) + self[c1, r1] * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The two tile rows whose values pixel row `y` reads (the same row twice beyond the outer centres).
    public func tileRows(around y: Int) -> (Int, Int) {
        let (r0, r1, _) = Self.span(Double(y), count: rows, tile: tileSize)
        return (r0, r1)
    }

    /// Writes the values of pixels 0..<width of row `y` to `out` (as `value(x:y:)` gives them).
    public func fillRow(_ y: Int, width: Int, into out: UnsafeMutablePointer<Float>) {
        forEachRun(ofRow: y, width: width) { start, end, value, slope, origin in
            for x in start..<end { out[x] = value + slope * (Float(x) - origin) }
        }
    }

    /// The same values × `scale`, rounded to integers (clamped to Int32): stepped along each run in 16.16 fixed
    /// point, so no Float arithmetic per pixel (for resampling at these values in fixed point). Within one unit of
    /// the Float values × `scale` over a tile's run.
    public func fillRow(_ y: Int, width: Int, scale: Float, into out: UnsafeMutablePointer<Int32>) {
        forEachRun(ofRow: y, width: width) { start, end, value, slope, origin in
            let first = Int64(((value + slope * (Float(start) - origin)) * scale * 65536).rounded()) + 32768
            let step = Int64((slope * scale * 65536).rounded()), o = out + start
            // No value carried from pixel to pixel, so the loop vectorises.
            for i in 0..<(end - start) { o[i] = Int32(clamping: (first &+ step &* Int64(i)) >> 16) }
        }
    }

    /// Row `y` in runs covering pixels 0..<width: pixel x of a run has the value `value + slope · (x − origin)`.
    /// Constant before the first tile centre and after the last; linear between centres, one run per tile (no
    /// per-pixel division or index arithmetic).
    @inline(__always)
    func forEachRun(ofRow y: Int, width: Int,
                    _ body: (_ start: Int, _ end: Int, _ value: Float, _ slope: Float, _ origin: Float) -> Void) {
        let (r0, r1, ty) = Self.span(Double(y), count: rows, tile: tileSize)
        let columns = columns, last = columns - 1
        values.withUnsafeBufferPointer { v in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: columns + 1) { row in
                let a = v.baseAddress! + r0 * columns, b = v.baseAddress! + r1 * columns
                for c in 0..<columns { row[c] = a[c] + (b[c] - a[c]) * ty }
                let t = Float(tileSize), inverse = 1 / t
                func centre(_ i: Int) -> Int { min(width, max(0, Int(((Float(i) + 0.5) * t - 0.5).rounded(.up)))) }
                var x = 0
                let first = centre(0)
                if first > 0 { body(0, first, row[0], 0, 0); x = first }
                for i in 0..<last {
                    let end = centre(i + 1)
                    if end > x { body(x, end, row[i], (row[i + 1] - row[i]) * inverse, (Float(i) + 0.5) * t - 0.5) }
                    x = max(x, end)
                }
                if x < width { body(x, width, row[last], 0, 0) }
            }
        }
    }

    /// Tiles either side of coordinate `p` and the fraction of the way from the first to the second.
    @inline(__always)
    static func span(_ p: Double, count: Int, tile: Int) -> (Int, Int, Float) {
        let f = (p + 0.5) / Double(tile) - 0.5
        if f <= 0 || count == 1 { return (0, 0, 0) }
        if f >= Double(count - 1) { return (count - 1, count - 1, 0) }
        let i = Int(f)
        return (i, i + 1, Float(f - Double(i)))
    }
}
