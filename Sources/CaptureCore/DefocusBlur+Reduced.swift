extension DefocusBlur {
    /// Discs of twice this radius (pixels) or more are blurred at a reduced resolution: a layer of radius R is
    /// averaged in blocks of f × f pixels, f = ⌊R / `exactRadius`⌋, blurred there with a disc of radius R / f (8–16 of
    /// its blocks), and read back bilinearly. The disc's edge softens over about 1.5 f pixels (3/16 of its radius at
    /// most); its cost per pixel falls from 2R + 1 row spans to a few reads.
    static let exactRadius: Float = 8

    /// The block size a layer of disc radius `radius` is blurred at (1: exactly, at full resolution).
    static func reduction(radius: Float) -> Int {
        radius >= 2 * exactRadius ? Int(radius / exactRadius) : 1
    }

    /// One layer blurred at 1 / `factor` of the image's resolution, for one worker going down its rows: block sums of
    /// the layer (premultiplied lanes, coverage in lane 6, pixels in frame in lane 7), their per-row prefix sums and the
    /// blurred rows, each kept in a ring as the rows advance (every row is made once per run of bands).
    final class ReducedLayer {
        let factor: Int
        let kernel: Kernel
        /// Reduced image size.
        let width: Int, height: Int
        private let layerID: UInt16
        private let layer: Layering.Layer
        private let imageWidth: Int, imageHeight: Int
        private let prefixRows: Int
        /// `prefixRows` rows of `width + 1` sums.
        private let prefix: UnsafeMutablePointer<SIMD8<Float>>
        private var prefixTag: [Int]
        private static let blurredRows = 4
        /// `blurredRows` rows of `width`.
        private let blurred: UnsafeMutablePointer<SIMD8<Float>>
        /// Per blurred ring slot: the reduced row it holds, and the columns with any coverage (empty when none).
        private var blurredTag: [Int]
        private var blurredColumns: [Range<Int>]

        /// `kernel`: the layer's disc in blocks of `f` pixels (radius R / f).
        init(layer: Layering.Layer, id: Int, factor f: Int, kernel: Kernel, imageWidth w: Int, imageHeight h: Int) {
            factor = f
            self.kernel = kernel
            width = (w + f - 1) / f
            height = (h + f - 1) / f
            layerID = UInt16(id)
            self.layer = layer
            imageWidth = w
            imageHeight = h
            prefixRows = 2 * kernel.reach + 1
            prefix = .allocate(capacity: prefixRows * (width + 1))
            prefix.initialize(repeating: .zero, count: prefixRows * (width + 1))
            prefixTag = [Int](repeating: -1, count: prefixRows)
            blurred = .allocate(capacity: Self.blurredRows * width)
            blurred.initialize(repeating: .zero, count: Self.blurredRows * width)
            blurredTag = [Int](repeating: -1, count: Self.blurredRows)
            blurredColumns = [Range<Int>](repeating: 0..<0, count: Self.blurredRows)
        }

        deinit {
            prefix.deallocate()
            blurred.deallocate()
        }

        /// Image rows whose pixels reach reduced rows `rows` of a layer reduced by `factor` whose disc reaches `reach`
        /// blocks.
        static func sourceRows(ofReduced rows: ClosedRange<Int>, factor f: Int, reach: Int, imageHeight: Int) -> Range<Int> {
            max(0, (rows.lowerBound - reach) * f)..<min(imageHeight, (rows.upperBound + reach + 1) * f)
        }

        /// Image rows whose pixels can reach image rows `rows` through such a layer (through the reduced rows those
        /// rows are read from).
        static func sourceRows(ofImageRows rows: Range<Int>, factor f: Int, reach: Int, imageHeight: Int) -> Range<Int> {
            sourceRows(ofReduced: (rows.lowerBound / f - 1)...((rows.upperBound - 1) / f + 1), factor: f, reach: reach,
                       imageHeight: imageHeight)
        }

        /// The reduced rows and weight image row `y` is read from (bilinear between block centres, clamped at the ends).
        func reducedRows(of y: Int) -> (Int, Int, Float) {
            let position = (Float(y) + 0.5) / Float(factor) - 0.5
            let low = min(max(Int(position.rounded(.down)), 0), height - 1)
            return (low, min(low + 1, height - 1), min(max(position - Float(low), 0), 1))
        }

        /// Composites this layer ("over") into `out`, image row `y`'s accumulator, reading `id` and the lanes' sources.
        func composite(row y: Int, into out: UnsafeMutablePointer<SIMD8<Float>>, id: UnsafePointer<UInt16>,
                       sources: [Lane]) {
            let (r0, r1, ty) = reducedRows(of: y)
            let (p0, c0) = blurredRow(r0, id: id, sources: sources), (p1, c1) = blurredRow(r1, id: id, sources: sources)
            let columns = c0.isEmpty ? c1 : c1.isEmpty ? c0 : min(c0.lowerBound, c1.lowerBound)..<max(c0.upperBound, c1.upperBound)
            guard !columns.isEmpty else { return }
            let f = factor, scale = 1 / Float(f)
            // Image columns whose bilinear reads touch the covered reduced columns.
            let xLo = max(0, (columns.lowerBound - 1) * f), xHi = min(imageWidth, (columns.upperBound + 1) * f)
            let last = width - 1
            for x in xLo..<xHi {
                let position = (Float(x) + 0.5) * scale - 0.5
                let c = min(max(Int(position.rounded(.down)), 0), last), d = min(c + 1, last)
                let tx = min(max(position - Float(c), 0), 1)
                let upper = p0[c] + (p0[d] - p0[c]) * tx, lower = p1[c] + (p1[d] - p1[c]) * tx
                DefocusBlur.over(upper + (lower - upper) * ty, into: &out[x])
            }
        }

        /// Reduced row `r` blurred (zero where nothing of the layer reaches), and the columns that may be non-zero.
        private func blurredRow(_ r: Int, id: UnsafePointer<UInt16>, sources: [Lane])
            -> (UnsafePointer<SIMD8<Float>>, Range<Int>) {
            let slot = r % Self.blurredRows
            if blurredTag[slot] != r {
                blurredTag[slot] = r
                blurredColumns[slot] = makeBlurredRow(r, into: blurred + slot * width, id: id, sources: sources)
            }
            return (UnsafePointer(blurred + slot * width), blurredColumns[slot])
        }

        private func makeBlurredRow(_ r: Int, into out: UnsafeMutablePointer<SIMD8<Float>>, id: UnsafePointer<UInt16>,
                                    sources: [Lane]) -> Range<Int> {
            let reach = kernel.reach
            out.update(repeating: .zero, count: width)
            let source = Self.sourceRows(ofReduced: r...r, factor: factor, reach: reach, imageHeight: imageHeight)
            guard let extent = layer.extent(rows: source) else { return 0..<0 }
            // Reduced columns holding the layer, widened by the disc.
            let lo = max(0, extent.lowerBound / factor - reach - 1), hi = min(width, (extent.upperBound - 1) / factor + reach + 2)
            var taps: [(UnsafePointer<SIMD8<Float>>, Kernel.Row)] = []
            taps.reserveCapacity(kernel.rows.count)
            for row in kernel.rows {
                let rr = r + row.dy
                guard rr >= 0, rr < height else { continue }
                taps.append((prefixRow(rr, id: id, sources: sources), row))
            }
            for x in lo..<hi { out[x] = DefocusBlur.discSum(taps, at: x, within: 0..<width) }
            return lo..<hi
        }

        /// Prefix sums along reduced row `r` of the layer's block sums (entry x: blocks 0..<x).
        private func prefixRow(_ r: Int, id: UnsafePointer<UInt16>, sources: [Lane]) -> UnsafePointer<SIMD8<Float>> {
            let slot = r % prefixRows, n = width
            let p = prefix + slot * (n + 1)
            if prefixTag[slot] == r { return UnsafePointer(p) }
            prefixTag[slot] = r
            let f = factor, w = imageWidth
            let rows = (r * f)..<min(imageHeight, (r + 1) * f)
            // Every pixel in frame counts in lane 7; the layer's own add their lanes and coverage.
            let block = p + 1
            for x in 0..<n { block[x] = SIMD8(0, 0, 0, 0, 0, 0, 0, Float(rows.count * (min(w, (x + 1) * f) - x * f))) }
            for y in rows {
                let e = layer.extents[y]
                guard e.x <= e.y else { continue }
                for x in Int(e.x)...Int(e.y) where id[y * w + x] == layerID {
                    var v = SIMD8<Float>(0, 0, 0, 0, 0, 0, 1, 0)
                    for l in 0..<sources.count { v[l] = sources[l].pointer[(y * w + x) * sources[l].stride] }
                    block[x / f] += v
                }
            }
            p[0] = .zero
            for x in 0..<n { p[x + 1] = p[x] + block[x] }
            return UnsafePointer(p)
        }
    }
}
