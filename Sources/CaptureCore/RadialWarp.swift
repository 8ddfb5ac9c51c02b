/// A radial resampling about a centre, per colour plane: output point p of plane c takes its value from
/// `center + (p − center) · ratio_c(r²)`, where r is p's distance from the centre over `normalisingRadius`.
/// Each plane's ratio is tabulated over r² in [0, `span`] (2048 steps, read linearly) from the function given at
/// construction; a plane whose ratio is 1 everywhere is copied.
///
/// The one mechanism behind lens distortion and lateral chromatic aberration: the renderer's undistortion of rays and
/// its colour fringes, the ISP's correction and the move of depth maps into a lens's geometry.
public struct RadialWarp: Sendable {
    /// The centre, pixels from the top-left corner (a pixel's centre is at + 0.5).
    public var center: SIMD2<Double>
    /// The radius unit, pixels.
    public let normalisingRadius: Double
    /// Per plane: the ratio over r², or empty for the identity.
    fileprivate let tables: [[Double]]
    /// Largest r² tabulated (beyond it the last entry holds): a corner is at 1.
    public static let span = 1.2
    fileprivate static let steps = 2048

    /// `ratio(plane, r)` for `planes` planes, r the normalised radius of the output point.
    public init(center: SIMD2<Double>, normalisingRadius: Double, planes: Int, ratio: (_ plane: Int, _ r: Double) -> Double) {
        self.center = center
        self.normalisingRadius = max(1e-9, normalisingRadius)
        tables = (0..<max(1, planes)).map { plane in
            let table = (0...Self.steps).map { i in ratio(plane, (Double(i) / Double(Self.steps) * Self.span).squareRoot()) }
            return table.allSatisfy { $0 == 1 } ? [] : table
        }
    }

    /// Whether every plane is the identity.
    public var isIdentity: Bool { tables.allSatisfy(\.isEmpty) }

    /// The ratio of plane `plane` at normalised squared radius `r2`.
    @inline(__always)
    public func ratio(plane: Int, r2: Double) -> Double {
        let table = tables[min(plane, tables.count - 1)]
        guard !table.isEmpty else { return 1 }
        let position = min(max(r2, 0) / Self.span, 1) * Double(Self.steps)
        let i = min(Int(position), Self.steps - 1)
        return table[i] + (table[i + 1] - table[i]) * (position - Double(i))
    }

    /// Where output point `p` of plane `plane` takes its value from.
    @inline(__always)
    public func sourcePoint(of p: SIMD2<Double>, plane: Int) -> SIMD2<Double> {
        let d = p - center
        return center + d * ratio(plane: plane, r2: (d * d).sum() / (normalisingRadius * normalisingRadius))
    }

    /// `image` (one plane per channel, or one plane for all) resampled bilinearly, clamped to the image; with
    /// `nanAware`, a sample next to a NaN takes its nearest neighbour (so missing depth stays missing, not spread).
    /// Images narrower or shorter than 2 pixels, or 32,000 pixels or more a side, come back unchanged.
    public func apply(_ image: Raster<Float>, nanAware: Bool = false) -> Raster<Float> {
        resample(image, nanAware: nanAware)
    }

    /// The same for bytes (rounded).
    public func apply(_ image: Raster<UInt8>) -> Raster<UInt8> {
        resample(image, nanAware: false)
    }

    /// Source positions are known at knots every `knotSpacing` pixels along a row and linearly in between, in 16.16
    /// fixed point: a lens's mapping is smooth, so the in-between error (spacing² / 8 × the mapping's curvature) stays
    /// below a thousandth of a pixel for phone lenses on images of a megapixel or more. The knots are exact on every
    /// `knotSpacing`-th row and interpolated on the rows between (within 16/65536 px; see `Knots`).
    @usableFromInline package static let knotSpacing = 8

    /// The knots of a `width` × `height` image's rows. Rows that are multiples of `knotSpacing` (and a few beyond
    /// the image each side) are computed exactly when the knots are made, on all cores; the rows between are
    /// interpolated from the three grid rows at and below them (quadratically: the mapping's curvature across rows is
    /// kept), so a row costs a few integer operations per knot instead of a table lookup in Double.
    package struct Knots: Sendable {
        private let flat: [Float]
        private let n: Int
        private let scale: Double, cx: Double, cy: Double, last: Double
        /// Exact knots of every `knotSpacing`-th row, per plane: `gridRows` rows of `count` x then `count` y.
        private var grid: [Int32]   // set once, at the end of init (computing it needs the rest of self)
        /// The grid's first row is image row `gridFirst × knotSpacing`.
        private let gridFirst: Int, gridRows: Int
        /// Whether every step and bend between grid rows is within ±2²³ (16.16), so the rows between are computed exactly
        /// in 32 bits (set with `grid`).
        private var narrow = false
        /// Knots per row (one every `knotSpacing` pixels, plus the end).
        package let count: Int
        /// Largest source position in 16.16, 1/65536 inside the last sample so its right/bottom neighbour exists.
        package let limits: SIMD2<Int32>
        /// The planes that move (the identity ones are left out).
        package let activePlanes: [Int]
        /// Grid rows kept beyond the image each side (band context reads rows outside the image).
        private static let margin = 4

        init(_ warp: RadialWarp, width w: Int, height h: Int, planes c: Int) {
            n = RadialWarp.steps + 1
            var flat = [Float](repeating: 1, count: c * n)
            var active: [Int] = []
            for channel in 0..<c {
                let table = warp.tables[min(channel, warp.tables.count - 1)]
                guard !table.isEmpty else { continue }
                active.append(channel)
                for i in 0..<n { flat[channel * n + i] = Float(table[i]) }
            }
            self.flat = flat
            activePlanes = active
            scale = 1 / (warp.normalisingRadius * warp.normalisingRadius) / RadialWarp.span * Double(RadialWarp.steps)
            cx = warp.center.x; cy = warp.center.y; last = Double(RadialWarp.steps) - 0.001
            limits = SIMD2(Int32(w - 1) << 16 - 1, Int32(h - 1) << 16 - 1)
            let count = (w + RadialWarp.knotSpacing - 1) / RadialWarp.knotSpacing + 1
            self.count = count
            let spacing = RadialWarp.knotSpacing
            let first = -Self.margin, rows = (h + spacing - 1) / spacing + 1 + 2 * Self.margin
            gridFirst = first
            gridRows = rows
            grid = []
            let exact = self, total = c * rows * 2 * count
            // Uninitialised: every value is written by the fill below, on all cores (its pages touched there first).
            let grid = [Int32](unsafeUninitializedCapacity: total) { buffer, initialized in
                nonisolated(unsafe) let base = buffer.baseAddress!
                Parallel.forEachBand(height: rows, bandHeight: 8) { band in
                    for g in band {
                        for plane in 0..<c {
                            let row = base + (plane * rows + g) * 2 * count
                            exact.exactFill(row: (first + g) * spacing, plane: plane, x: row, y: row + count)
                        }
                    }
                }
                initialized = total
            }
            // Steps b − a and bends c − 2b + a of three rows in a row: within ±2²³, (b − a)·2·t·spacing and
            // (c − 2b + a)·t·(t − spacing) stay within Int32 (t < spacing = 8), and so does a plus their sum over 2⁷.
            let limit = Int64(1) << 23, triples = max(0, rows - 2)
            let within = grid.withUnsafeBufferPointer { buffer in
                nonisolated(unsafe) let base = buffer.baseAddress!
                return Parallel.map(count: (triples + 31) / 32) { chunk in
                    (0..<c).allSatisfy { plane in
                        (chunk * 32..<min(triples, chunk * 32 + 32)).allSatisfy { g in
                            let a = base + (plane * rows + g) * 2 * count, b = a + 2 * count, c = b + 2 * count
                            return (0..<(2 * count)).allSatisfy { k in
                                let step = Int64(b[k]) - Int64(a[k]), bend = Int64(c[k]) - 2 * Int64(b[k]) + Int64(a[k])
                                return abs(step) <= limit && abs(bend) <= limit
                            }
                        }
                    }
                }
            }
            narrow = spacing == 8 && within.allSatisfy { $0 }
            self.grid = grid
        }

        /// Row `y`'s knots for `plane`: source (sample-centre) positions in 16.16 fixed point, `count` of them —
        /// exact on every `knotSpacing`-th row, interpolated between (rows far outside the image are computed exactly).
        @inline(__always)
        package func fill(row y: Int, plane: Int, x kx: UnsafeMutablePointer<Int32>, y ky: UnsafeMutablePointer<Int32>) {
            let spacing = RadialWarp.knotSpacing, shift = Int64(spacing.trailingZeroBitCount)
            let g = (y >> shift) - gridFirst, t = Int64(y & (spacing - 1))
            guard g >= 0, g + 2 < gridRows else {
                exactFill(row: y, plane: plane, x: kx, y: ky)
                return
            }
            let count = count, scale = shift * 2 + 1
            grid.withUnsafeBufferPointer { grid in
                let g0 = grid.baseAddress! + (plane * gridRows + g) * 2 * count
                // Quadratic through grid rows g, g + 1, g + 2 at u = t / spacing: a + u (b − a) + u (u − 1) / 2 · (c − 2b + a),
                // in units of 1 / (2 spacing²), rounded.
                let slope = t * 2 * Int64(spacing), bend = t * (t - Int64(spacing)), half = Int64(1) << (scale - 1)
                if narrow {
                    // The same values in 32 bits (wrapping operations: the true intermediate results fit).
                    let slope = Int32(slope), bend = Int32(bend), half = Int32(half), scale = Int32(scale)
                    @inline(__always) func between(_ a: UnsafePointer<Int32>, into out: UnsafeMutablePointer<Int32>) {
                        let b = a + 2 * count, c = b + 2 * count
                        for k in 0..<count {
                            let a = a[k], b = b[k], c = c[k]
                            out[k] = a &+ (((b &- a) &* slope &+ (c &- 2 &* b &+ a) &* bend &+ half) &>> scale)
                        }
                    }
                    between(g0, into: kx)
                    between(g0 + count, into: ky)
                    return
                }
                @inline(__always) func between(_ a: UnsafePointer<Int32>, into out: UnsafeMutablePointer<Int32>) {
                    let b = a + 2 * count, c = b + 2 * count
                    for k in 0..<count {
                        let a = Int64(a[k]), b = Int64(b[k]), c = Int64(c[k])
                        // Clamped: between knots at the ±32,000 px limit of a wild warp the curve may overshoot it.
                        out[k] = Int32(clamping: a + (((b - a) * slope + (c - 2 * b + a) * bend + half) >> scale))
                    }
                }
                between(g0, into: kx)
                between(g0 + count, into: ky)
            }
        }

        /// A plane that does not move gets sample centres, exactly.
        package func exactFill(row y: Int, plane: Int, x kx: UnsafeMutablePointer<Int32>, y ky: UnsafeMutablePointer<Int32>) {
            guard activePlanes.contains(plane) else {
                for k in 0..<count {
                    kx[k] = Int32(truncatingIfNeeded: k * RadialWarp.knotSpacing) << 16
                    ky[k] = Int32(truncatingIfNeeded: y) << 16
                }
                return
            }
            let far = 32_000.0   // beyond any image a warp takes; keeps 16.16 within Int32
            let dy = Double(y) + 0.5 - cy, dy2 = dy * dy
            let spacing = RadialWarp.knotSpacing, scale = scale, cx = cx, cy = cy, last = last, n = n
            flat.withUnsafeBufferPointer { tables in
                let table = tables.baseAddress! + plane * n
                for k in 0..<count {
                    let dx = Double(k * spacing) + 0.5 - cx
                    let position = min((dx * dx + dy2) * scale, last)
                    let i = Int(position), t = Float(position - Double(i))
                    let f = Double(table[i] + (table[i + 1] - table[i]) * t)
                    kx[k] = Int32(min(max(cx + dx * f - 0.5, -far), far) * 65536)
                    ky[k] = Int32(min(max(cy + dy * f - 0.5, -far), far) * 65536)
                }
            }
        }
    }

    /// Segment `k` of a row's knots: its first source position and its step per pixel (16.16), the positions of
    /// the segment's pixels being start + i · step. Steps are computed in 64 bits: two knots of a wild warp may lie
    /// up to 64,000 pixels apart (the readers' clamps keep reads inside).
    @inlinable @inline(__always)
    package static func segment(_ knotsX: UnsafePointer<Int32>, _ knotsY: UnsafePointer<Int32>,
                                _ k: Int) -> (x: Int32, y: Int32, stepX: Int32, stepY: Int32) {
        let shift = Int64(knotSpacing.trailingZeroBitCount), x = knotsX[k], y = knotsY[k]
        return (x, y, Int32(truncatingIfNeeded: (Int64(knotsX[k + 1]) - Int64(x)) >> shift),
                Int32(truncatingIfNeeded: (Int64(knotsY[k + 1]) - Int64(y)) >> shift))
    }

    /// Whether the warp resamples images of this size: 2 ..< 32,000 pixels a side (16.16 positions stay within
    /// Int32); others come back unchanged.
    package static func resamples(width: Int, height: Int) -> Bool {
        width > 1 && height > 1 && width < 32_000 && height < 32_000
    }

    /// Knots for a `width` × `height` image with `planes` planes (sizes that `resamples(width:height:)`).
    package func knots(width: Int, height: Int, planes: Int) -> Knots {
        Knots(self, width: width, height: height, planes: planes)
    }

    @_specialize(where Element == UInt8)
    @_specialize(where Element == Float)
    private func resample<Element: WarpSample>(_ image: Raster<Element>, nanAware: Bool) -> Raster<Element> {
        guard !isIdentity, Self.resamples(width: image.width, height: image.height) else { return image }
        let w = image.width, h = image.height, c = image.channels
        let knots = knots(width: w, height: h, planes: c)
        var out = image
        image.storage.withUnsafeBufferPointer { source in
            out.storage.withUnsafeMutableBufferPointer { destination in
                nonisolated(unsafe) let src = source.baseAddress!, dst = destination.baseAddress!
                Parallel.forEachBand(height: h, bandHeight: 16) { rows in
                    let kx = UnsafeMutablePointer<Int32>.allocate(capacity: knots.count)
                    let ky = UnsafeMutablePointer<Int32>.allocate(capacity: knots.count)
                    defer { kx.deallocate(); ky.deallocate() }
                    for y in rows {
                        for channel in knots.activePlanes {
                            knots.fill(row: y, plane: channel, x: kx, y: ky)
                            Element.resampleRow(src + channel, width: w, channels: c, knotsX: kx, knotsY: ky,
                                                limits: knots.limits, into: dst + y * w * c + channel,
                                                nanAware: nanAware)
                        }
                    }
                }
            }
        }
        return out
    }
}

/// Sample types the warp reads: bytes and Floats.
protocol WarpSample: BitwiseCopyable, Sendable {
    /// Bilinear read between `p[0]`, `p[right]`, `p[down]` and `p[down + right]` at 16-bit fractions `fx`, `fy`.
    static func bilinear(_ p: UnsafePointer<Self>, right: Int, down: Int, fx: Int32, fy: Int32, nanAware: Bool) -> Self
}

extension WarpSample {
    /// Writes one row of one plane (`src` and `row` point at that plane's first sample; samples `channels` apart):
    /// sample x is read bilinearly at the position interpolated linearly between knots x / `RadialWarp.knotSpacing`
    /// and the next (16.16 fixed point), clamped to [0, `limits`].
    @inline(__always)
    static func resampleRow(_ src: UnsafePointer<Self>, width w: Int, channels c: Int,
                            knotsX: UnsafePointer<Int32>, knotsY: UnsafePointer<Int32>,
                            limits: SIMD2<Int32>, into row: UnsafeMutablePointer<Self>, nanAware: Bool) {
        let stride = w * c, spacing = RadialWarp.knotSpacing
        var x = 0, k = 0
        while x < w {
            let segment = RadialWarp.segment(knotsX, knotsY, k), stepX = segment.stepX, stepY = segment.stepY
            var px = segment.x, py = segment.y
            for _ in 0..<Swift.min(spacing, w - x) {
                let sx = Swift.min(Swift.max(px, 0), limits.x), sy = Swift.min(Swift.max(py, 0), limits.y)
                row[x * c] = bilinear(src + (Int(sy >> 16) * w + Int(sx >> 16)) * c, right: c, down: stride,
                                      fx: sx & 0xFFFF, fy: sy & 0xFFFF, nanAware: nanAware)
                px &+= stepX
                py &+= stepY
                x += 1
            }
            k += 1
        }
    }
}

extension UInt8: WarpSample {
    /// Integer arithmetic throughout: fractions rounded to 1/256, the result rounded.
    @inline(__always)
    static func bilinear(_ p: UnsafePointer<UInt8>, right: Int, down: Int, fx: Int32, fy: Int32, nanAware: Bool) -> UInt8 {
        let fx = (fx &+ 128) >> 8, fy = (fy &+ 128) >> 8   // rounded: 0…256
        let a = Int32(p[0]), b = Int32(p[right]), d = Int32(p[down]), e = Int32(p[down + right])
        let top = (a &<< 8) &+ (b &- a) &* fx, bottom = (d &<< 8) &+ (e &- d) &* fx
        return UInt8(truncatingIfNeeded: ((top &<< 8) &+ (bottom &- top) &* fy &+ 32768) >> 16)
    }
}

extension Float: WarpSample {
    /// A sample next to a NaN takes its nearest neighbour when `nanAware` (missing depth stays missing).
    @inline(__always)
    static func bilinear(_ p: UnsafePointer<Float>, right: Int, down: Int, fx: Int32, fy: Int32, nanAware: Bool) -> Float {
        let fx = Float(fx) / 65536, fy = Float(fy) / 65536
        let a = p[0], b = p[right], d = p[down], e = p[down + right]
        if nanAware, a.isNaN || b.isNaN || d.isNaN || e.isNaN {
            return fy < 0.5 ? (fx < 0.5 ? a : b) : (fx < 0.5 ? d : e)
        }
        let top = a + (b - a) * fx, bottom = d + (e - d) * fx
        return top + (bottom - top) * fy
    }
}
