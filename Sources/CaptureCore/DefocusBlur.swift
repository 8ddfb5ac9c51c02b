import Foundation

/// The one occlusion-aware lens blur (disc bokeh) of the package, used by the camera simulator's defocus and by the
/// portrait renderer's synthetic depth of field.
///
/// Every pixel spreads its light uniformly over a disc (the lens aperture's image) of its own blur-circle diameter,
/// and nearer surfaces hide farther ones. Computed as depth layers composited back to front:
/// 1. pixels are grouped into layers of nearly equal blur (diameter bins 0.5 px wide below 8 px, 6 % wide above),
///    split into the side nearer and the side farther than the sharpest pixel, ordered by mean depth;
/// 2. each layer's planes (premultiplied by its coverage mask) and its mask are blurred with the layer's disc
///    (scatter as gather: a uniform kernel is its own mirror), evaluated as area-weighted row spans over per-row
///    prefix sums — the exact disc area per row, a fractional pixel at each row's ends, so blur grows smoothly
///    with the diameter from 0; a layer whose disc radius is 16 pixels or more is blurred the same way at a reduced
///    resolution (`ReducedLayer`: f × f block sums, a disc of radius R / f between 8 and 16 blocks, read back
///    bilinearly), which softens its disc's edge over about 1.5 f pixels and costs a tenth as much;
/// 3. the layers are composited with "over" (`acc = layer + (1 − coverage) · acc`), so a blurred foreground spreads
///    over a sharp background and a sharp foreground stays opaque in front of a blurred background, which does not
///    bleed into it (no halos: a layer never gathers another layer's colour);
/// 4. the result is divided by the accumulated coverage.
///
/// Approximations: the blur is constant within a layer (its pixels' mean diameter, at most 0.25 px or 3 % off);
/// what a foreground hides is unknown in one view, so where a blurred foreground turns translucent over a hole in
/// the layers behind it, the step-4 normalisation gives that share to the surfaces that are present (the blurred
/// edge of a foreground is solid up to its silhouette and fades over half its blur outside it, instead of
/// fading symmetrically about it); the disc is cut at the image border and renormalised, as if the scene beyond
/// the frame continued like the pixels inside it. A flat region keeps its mean exactly (energy is conserved).
public enum DefocusBlur {
    /// Largest blur diameter honoured, pixels (larger values are clamped to it).
    public static let maximumDiameter: Float = 1024

    /// `planes` (any channel counts, all of one size) blurred as their pixels would be by a lens whose blur-circle
    /// diameter at each pixel is `cocDiameter` (pixels, 1 channel; NaN or negative = sharp) and whose surfaces lie at
    /// `depth` (1 channel, any monotonic distance such as metres; NaN = farthest). Sizes must match (a precondition:
    /// callers validate user data first).
    public static func blurred(_ planes: [Raster<Float>], cocDiameter: Raster<Float>, depth: Raster<Float>)
        -> [Raster<Float>] {
        let w = cocDiameter.width, h = cocDiameter.height
        precondition(depth.width == w && depth.height == h && planes.allSatisfy { $0.width == w && $0.height == h },
                     "DefocusBlur: planes, blur and depth sizes differ")
        guard w > 0, h > 0, !planes.isEmpty else { return planes }
        let layering = cocDiameter.storage.withUnsafeBufferPointer { coc in
            depth.storage.withUnsafeBufferPointer { z in Layering(width: w, height: h, coc: coc, depth: z) }
        }
        // Output planes written in place through pointers, wrapped as rasters at the end.
        let targets = planes.map { UnsafeMutableBufferPointer<Float>.allocate(capacity: $0.storage.count) }
        defer { for t in targets { t.deallocate() } }
        // Lanes: (raster, channel) pairs, up to `laneCount` per pass.
        let lanes = planes.indices.flatMap { p in (0..<planes[p].channels).map { (p, $0) } }
        var start = 0
        while start < lanes.count {
            let group = Array(lanes[start..<min(start + laneCount, lanes.count)])
            start += laneCount
            withSourcePointers(planes) { sources in
                run(layering,
                    sources: group.map { Lane(pointer: sources[$0.0].baseAddress! + $0.1, stride: planes[$0.0].channels) },
                    targets: group.map { MutableLane(pointer: targets[$0.0].baseAddress! + $0.1, stride: planes[$0.0].channels) })
            }
        }
        return planes.indices.map {
            Raster(width: w, height: h, channels: planes[$0].channels, storage: Array(targets[$0]))
        }
    }

    /// Data lanes per pass (of the 8 in a vector: the rest hold the coverage mask and the in-frame weight).
    static let laneCount = 6

    struct Lane {
        var pointer: UnsafePointer<Float>
        var stride: Int
    }

    struct MutableLane {
        var pointer: UnsafeMutablePointer<Float>
        var stride: Int
    }

    /// Every raster's storage pinned for the duration of `body`.
    private static func withSourcePointers(_ planes: [Raster<Float>], _ body: ([UnsafeBufferPointer<Float>]) -> Void) {
        func pin(_ index: Int, _ sources: [UnsafeBufferPointer<Float>]) {
            guard index < planes.count else { return body(sources) }
            planes[index].storage.withUnsafeBufferPointer { pin(index + 1, sources + [$0]) }
        }
        pin(0, [])
    }

    /// One pass over up to `laneCount` lanes: runs of bands of rows, one run per worker at a time, each band's
    /// accumulator taking the layers back to front; a layer with a large disc is read from its `ReducedLayer`, kept
    /// for the run so that each of its reduced rows is made once.
    private static func run(_ layering: Layering, sources: [Lane], targets: [MutableLane]) {
        let w = layering.width, h = layering.height, laneTotal = sources.count
        let factors = layering.layers.map { reduction(radius: $0.radius) }
        // Each layer's disc at the resolution it is blurred at (in its blocks when reduced).
        let kernels = layering.layers.indices.map { Kernel(radius: layering.layers[$0].radius / Float(factors[$0])) }
        let bands = RowBands(height: h, bandHeight: 16)
        // Many runs per worker keep both busy to the end when the blur is uneven; each run makes its reduced rows afresh.
        let runs = RowBands(height: bands.count, maxCount: 16 * Parallel.coreCount)
        nonisolated(unsafe) let src = sources, dst = targets
        layering.ids.withUnsafeBufferPointer { idBuffer in
            let id = idBuffer.baseAddress!
            Parallel.forEachBand(height: runs.height, bandHeight: runs.bandHeight) { run in
                var reduced = [ReducedLayer?](repeating: nil, count: layering.layers.count)
                var acc = [SIMD8<Float>](repeating: .zero, count: bands.bandHeight * w)
                acc.withUnsafeMutableBufferPointer { accBuffer in
                    let a = accBuffer.baseAddress!
                    for b in run {
                        let rows = bands[b]
                        a.update(repeating: .zero, count: rows.count * w)
                        for (k, layer) in layering.layers.enumerated() {
                            let f = factors[k]
                            if f == 1 {
                                blurExactly(layer: layer, id: k, kernel: kernels[k], rows: rows, width: w, height: h, ids: id,
                                            sources: src, into: a)
                                continue
                            }
                            let reaching = ReducedLayer.sourceRows(ofImageRows: rows, factor: f, reach: kernels[k].reach, imageHeight: h)
                            guard layer.extent(rows: reaching) != nil else { continue }
                            let blur = reduced[k] ?? ReducedLayer(layer: layer, id: k, factor: f, kernel: kernels[k], imageWidth: w,
                                                                  imageHeight: h)
                            reduced[k] = blur
                            for y in rows { blur.composite(row: y, into: a + (y - rows.lowerBound) * w, id: id, sources: src) }
                        }
                        for y in rows {
                            let accRow = a + (y - rows.lowerBound) * w
                            for x in 0..<w {
                                let v = accRow[x]
                                let inverse: Float = v[6] > 0 ? 1 / v[6] : 0
                                for l in 0..<laneTotal { dst[l].pointer[(y * w + x) * dst[l].stride] = v[l] * inverse }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Composites one layer ("over") into the accumulator `a` of band `rows`, its disc evaluated at full resolution
    /// over per-row prefix sums of the rows within reach.
    private static func blurExactly(layer: Layering.Layer, id k: Int, kernel: Kernel, rows: Range<Int>, width w: Int,
                                    height h: Int, ids id: UnsafePointer<UInt16>, sources src: [Lane],
                                    into a: UnsafeMutablePointer<SIMD8<Float>>) {
        let laneTotal = src.count
        let reach = kernel.reach
        // Columns of this layer's pixels within reach of the band.
        let lo = max(0, rows.lowerBound - reach), hi = min(h, rows.upperBound + reach)
        guard let extent = layer.extent(rows: lo..<hi) else { return }
        let layerID = UInt16(k)
        if kernel.isIdentity {
            for y in rows {
                let row = layer.extents[y]
                guard row.x <= row.y else { continue }
                for x in Int(row.x)...Int(row.y) where id[y * w + x] == layerID {
                    var v = SIMD8<Float>(repeating: 1)
                    for l in 0..<laneTotal { v[l] = src[l].pointer[(y * w + x) * src[l].stride] }
                    a[(y - rows.lowerBound) * w + x] = v
                }
            }
            return
        }
        let gLo = max(0, extent.lowerBound - reach - 1), gHi = min(w, extent.upperBound + reach + 1)
        let xLo = max(0, gLo - reach - 1), xHi = min(w, gHi + reach + 1)
        let span = xHi - xLo + 1
        let ringRows = 2 * reach + 1
        var ring = [SIMD8<Float>](repeating: .zero, count: ringRows * span)
        var ringRow = [Int](repeating: -1, count: ringRows)
        ring.withUnsafeMutableBufferPointer { ringBuffer in
            let r = ringBuffer.baseAddress!
            func prefixRow(_ yy: Int) -> UnsafeMutablePointer<SIMD8<Float>> {
                let slot = yy % ringRows
                let p = r + slot * span
                if ringRow[slot] == yy { return p }
                ringRow[slot] = yy
                var sum = SIMD8<Float>.zero
                p[0] = sum
                let rowExtent = layer.extents[yy]
                let absent = SIMD8<Float>(0, 0, 0, 0, 0, 0, 0, 1)
                for x in xLo..<xHi {
                    let i = yy * w + x
                    if x >= Int(rowExtent.x) && x <= Int(rowExtent.y) && id[i] == layerID {
                        var v = SIMD8<Float>(repeating: 1)
                        for l in 0..<laneTotal { v[l] = src[l].pointer[i * src[l].stride] }
                        sum += v
                    } else {
                        sum += absent
                    }
                    p[x - xLo + 1] = sum
                }
                return p
            }
            for y in rows {
                let out = a + (y - rows.lowerBound) * w
                // Rows of the disc that lie inside the image, their prefix sums.
                var taps: [(UnsafePointer<SIMD8<Float>>, Kernel.Row)] = []
                taps.reserveCapacity(kernel.rows.count)
                for row in kernel.rows {
                    let yy = y + row.dy
                    guard yy >= 0, yy < h else { continue }
                    taps.append((UnsafePointer(prefixRow(yy)), row))
                }
                // Columns whose spans stay inside the prefix rows read them without clamps, through pointers set at
                // each span's right and left ends.
                let inside = max(gLo, xLo + reach + 1)..<max(max(gLo, xLo + reach + 1), min(gHi, xHi - reach - 1))
                let ends = taps.map { (UnsafePointer($0.0 + ($0.1.half + 1 - xLo)), UnsafePointer($0.0 - ($0.1.half + xLo)),
                                       $0.1.innerWeight, $0.1.outerWeight) }
                for x in gLo..<gHi where !inside.contains(x) {
                    over(discSum(taps, at: x, within: xLo..<xHi), into: &out[x])
                }
                ends.withUnsafeBufferPointer { ends in
                    for x in inside {
                        var s = SIMD8<Float>.zero
                        for (right, left, innerWeight, outerWeight) in ends {
                            s += innerWeight * (right[x] - left[x]) + outerWeight * (right[x + 1] - left[x - 1])
                        }
                        over(s, into: &out[x])
                    }
                }
            }
        }
    }

    /// The disc's sum at column `x` from `taps` (each kernel row's prefix-sum row, entry i the sum of columns
    /// `columns.lowerBound`..<`columns.lowerBound + i`), its spans cut at the columns' ends.
    @inline(__always)
    static func discSum(_ taps: [(UnsafePointer<SIMD8<Float>>, Kernel.Row)], at x: Int, within columns: Range<Int>)
        -> SIMD8<Float> {
        let lo = columns.lowerBound, hi = columns.upperBound
        var s = SIMD8<Float>.zero
        for (p, row) in taps {
            let inner = p[min(x + row.half + 1, hi) - lo] - p[max(x - row.half, lo) - lo]
            let outer = p[min(x + row.half + 2, hi) - lo] - p[max(x - row.half - 1, lo) - lo]
            s += row.innerWeight * inner + row.outerWeight * outer
        }
        return s
    }

    /// Composites a layer's disc sum `s` (lanes premultiplied, coverage in lane 6, pixels in frame in lane 7) over
    /// `acc`: `acc = layer + (1 − coverage) · acc`, normalised by the pixels in frame; nothing where it has no coverage.
    @inline(__always)
    static func over(_ s: SIMD8<Float>, into acc: inout SIMD8<Float>) {
        guard s[6] > 0 else { return }
        let inverse = 1 / s[7]
        acc = s * inverse + (1 - s[6] * inverse) * acc
    }

    /// A disc of radius r as area-weighted row spans: row dy covers the disc's area between dy ± ½, spread as a
    /// centred span of that area's mean chord length (whole pixels of weight `height`, a fraction at each end).
    struct Kernel {
        struct Row {
            var dy: Int
            var half: Int
            /// Weight of the span of 2·half+1 pixels and of the span two pixels wider (blending gives the fractional ends).
            var innerWeight: Float
            var outerWeight: Float
        }

        let rows: [Row]
        let reach: Int
        let isIdentity: Bool

        init(radius: Float) {
            let r = Double(radius)
            guard r >= 0.125 else { rows = []; reach = 0; isIdentity = true; return }
            isIdentity = false
            let reach = max(0, Int((r + 0.5).rounded(.up)) - 1)
            func area(_ y: Double) -> Double {   // disc area between 0 and y (signed)
                let t = min(max(y, -r), r)
                return t * max(0, r * r - t * t).squareRoot() + r * r * asin(t / r)
            }
            var rows: [Row] = []
            for dy in -reach...reach {
                let a = max(Double(dy) - 0.5, -r), b = min(Double(dy) + 0.5, r)
                guard b > a else { continue }
                let height = b - a, chord = (area(b) - area(a)) / height
                if chord < 1 {
                    rows.append(Row(dy: dy, half: 0, innerWeight: Float(height * chord), outerWeight: 0))
                } else {
                    let half = Int(((chord - 1) / 2).rounded(.down))
                    let edge = (chord - Double(2 * half + 1)) / 2
                    rows.append(Row(dy: dy, half: half, innerWeight: Float(height * (1 - edge)),
                                    outerWeight: Float(height * edge)))
                }
            }
            self.rows = rows
            // Farthest pixel touched, rows or columns (the outer span reaches half + 1).
            self.reach = max(reach, rows.map { $0.half + 1 }.max() ?? 0)
        }
    }
}
