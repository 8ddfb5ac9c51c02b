import CaptureCore

/// Local alignment for hand shake, in the spirit of HDR+ (Hasinoff et al. 2016): on top of a global
/// translation (``ExposureAlignment``), each 64-pixel tile of every frame is matched to the reference
/// coarse to fine over a pyramid (1/8, 1/4, 1/2 resolution; sum of squared differences with sub-pixel
/// refinement), the tile vectors are cleaned by a median filter, and the frame is resampled with the
/// displacement interpolated bilinearly between tile centres, so small rotations and parallax are
/// followed, not only shifts. Frames of different exposure are compared at one exposure
/// (histogram-matched grey levels; clipped pixels left out). Works on 8-bit RGB frames of equal size.
public struct TileAlignment: Sendable {
    /// Tile side in full-resolution pixels.
    public var tileSize: Int
    /// Largest displacement searched beyond the initial shift, in full-resolution pixels.
    public var searchRadius: Int

    /// Whether frames of `width` × `height` are aligned tile by tile (at least two tiles a side); smaller ones keep
    /// their initial shifts.
    public func alignsTiles(width: Int, height: Int) -> Bool {
        width >= 2 * tileSize && height >= 2 * tileSize
    }

    /// - Parameters: tileSize: tile side in pixels (≥ 16); searchRadius: pixels searched around the initial shift.
    public init(tileSize: Int = 64, searchRadius: Int = 16) {
        self.tileSize = tileSize
        self.searchRadius = searchRadius
    }

    /// Replaces every frame but `reference` by its resampling onto the reference, starting from
    /// `initialShifts` (e.g. ``ExposureAlignment/estimateShifts(_:reference:)``; zero when nil). One frame's
    /// old and new pixels are held at a time. Returns each frame's median displacement, rounded: its overall shift
    /// ((0, 0) for the reference).
    @discardableResult
    public func align(_ images: inout [Raster<UInt8>], reference: Int,
                      initialShifts: [(dx: Int, dy: Int)]? = nil) throws -> [(dx: Int, dy: Int)] {
        let fields = try estimate(images, reference: reference, initialShifts: initialShifts)
        var shifts = images.map { _ in (dx: 0, dy: 0) }
        for k in images.indices {
            guard let field = fields[k] else { continue }
            // Within a quarter pixel of one whole-pixel shift everywhere: shift, since resampling would only blur.
            let sx = field.dx.values.sorted()[field.dx.values.count / 2].rounded()
            let sy = field.dy.values.sorted()[field.dy.values.count / 2].rounded()
            shifts[k] = (Int(sx), Int(sy))
            if field.dx.values.allSatisfy({ abs($0 - sx) < 0.25 }) && field.dy.values.allSatisfy({ abs($0 - sy) < 0.25 }) {
                images[k] = ExposureAlignment.translate(images[k], dx: Int(sx), dy: Int(sy))
            } else {
                images[k] = Self.warp(images[k], field: field)
            }
        }
        return shifts
    }

    /// The displacement field of every frame (nil for the reference).
    func estimate(_ images: [Raster<UInt8>], reference: Int, initialShifts: [(dx: Int, dy: Int)]?) throws -> [DisplacementField?] {
        try FusionError.validate(images, channels: 3)
        guard images.indices.contains(reference) else { throw FusionError.referenceOutOfRange(reference) }
        guard tileSize >= 16, searchRadius >= 0 else {
            throw FusionError.invalidParameter("tileSize = \(tileSize) (≥ 16), searchRadius = \(searchRadius) (≥ 0)")
        }
        if let initialShifts, initialShifts.count != images.count {
            throw FusionError.invalidParameter("\(initialShifts.count) initial shifts for \(images.count) images")
        }
        let width = images[0].width, height = images[0].height
        let initial = initialShifts ?? images.map { _ in (0, 0) }
        guard alignsTiles(width: width, height: height) else {
            // Too small for tiles: the initial shifts, as uniform fields.
            return images.indices.map { k in
                k == reference ? nil : DisplacementField(dx: TileGrid(tileSize: tileSize, width: width, height: height, value: Float(initial[k].dx)),
                                                         dy: TileGrid(tileSize: tileSize, width: width, height: height, value: Float(initial[k].dy)))
            }
        }
        let greys = Parallel.map(count: images.count) { ExposureAlignment.halfGrey(images[$0]) }
        let starts = initial.map { (Float($0.0), Float($0.1)) }
        // One frame at a time (each match runs on all cores): two frames' levels at once cost 50 MB more.
        return images.indices.map { k in
            k == reference ? nil : estimate(reference: greys[reference], other: greys[k], width: width, height: height,
                                            initial: starts[k])
        }
    }

    /// One frame's field from half-resolution greys.
    func estimate(reference: GreyImage, other: GreyImage, width: Int, height: Int, initial: (Float, Float)) -> DisplacementField {
        let pair = ExposurePair(reference: reference, other: other)
        var ref = [MaskedLevel(reference, pair: pair, isReference: true)]
        var oth = [MaskedLevel(other, pair: pair, isReference: false)]
        for _ in 0..<2 {
            ref.append(ref[ref.count - 1].halved())
            oth.append(oth[oth.count - 1].halved())
        }
        let columns = (width + tileSize - 1) / tileSize, rows = (height + tileSize - 1) / tileSize
        // Displacements at the coarsest level (scale 8), from the initial shift.
        var dx = [Float](repeating: initial.0 / 8, count: columns * rows), dy = [Float](repeating: initial.1 / 8, count: columns * rows)
        var reliable = [Bool](repeating: true, count: columns * rows)
        for level in stride(from: 2, through: 0, by: -1) {
            let scale = 2 << level, tile = tileSize / scale
            let radius = level == 2 ? max(1, (searchRadius + scale - 1) / scale) : 1
            let r = ref[level], o = oth[level], startX = dx, startY = dy
            let results = Parallel.map(count: rows) { row -> [(Float, Float, Bool)] in
                (0..<columns).map { column in
                    let i = row * columns + column
                    return Self.match(r, o, x0: column * tile, y0: row * tile, size: tile,
                                      start: (Int(startX[i].rounded()), Int(startY[i].rounded())), radius: radius,
                                      subpixel: level == 0)
                }
            }
            for (row, values) in results.enumerated() {
                for (column, value) in values.enumerated() {
                    let i = row * columns + column
                    (dx[i], dy[i], reliable[i]) = value
                }
            }
            // Tiles without a trustworthy match follow the frame's overall motion (an affine fit of the
            // reliable tiles: shift, rotation, scale), or their reliable neighbours when there are too few.
            if let model = Self.affineModel(dx, dy, reliable: reliable, columns: columns, rows: rows, tile: tile) {
                for i in dx.indices where !reliable[i] {
                    (dx[i], dy[i]) = model((Double(i % columns) + 0.5) * Double(tile), (Double(i / columns) + 0.5) * Double(tile))
                }
            } else {
                Self.fillUnreliable(&dx, &dy, reliable: reliable, columns: columns, rows: rows,
                                    fallback: (initial.0 / Float(scale), initial.1 / Float(scale)))
            }
            Self.medianFilter(&dx, columns: columns, rows: rows)
            Self.medianFilter(&dy, columns: columns, rows: rows)
            if level > 0 {
                for i in dx.indices { dx[i] *= 2; dy[i] *= 2 }
            }
        }
        // Level 0 is half resolution; nothing strays further than the search allows (or is not a number).
        let reach = Float(2 * searchRadius + 2)
        func bounded(_ v: Float, _ start: Float) -> Float { v.isFinite ? min(max(v, start - reach), start + reach) : start }
        return DisplacementField(dx: TileGrid(tileSize: tileSize, columns: columns, rows: rows, values: dx.map { bounded(2 * $0, initial.0) }),
                                 dy: TileGrid(tileSize: tileSize, columns: columns, rows: rows, values: dy.map { bounded(2 * $0, initial.1) }))
    }

    /// The best displacement of the tile at (x0, y0) of side `size` within `radius` of `start`, with a
    /// parabola fit through the neighbouring costs when `subpixel`; unreliable when the tile is flat or
    /// mostly clipped.
    static func match(_ r: MaskedLevel, _ o: MaskedLevel, x0: Int, y0: Int, size: Int, start: (Int, Int), radius: Int,
                      subpixel: Bool) -> (Float, Float, Bool) {
        let x1 = min(r.width, x0 + size), y1 = min(r.height, y0 + size)
        guard x1 > x0 + 1, y1 > y0 + 1 else { return (Float(start.0), Float(start.1), false) }
        // Texture: the reference tile's variance over its informative pixels.
        var sum: Float = 0, sum2: Float = 0, n: Float = 0
        for y in y0..<y1 {
            for x in x0..<x1 where r.mask[y * r.width + x] > 0.5 {
                let v = r.values[y * r.width + x]
                sum += v; sum2 += v * v; n += 1
            }
        }
        let area = Float((x1 - x0) * (y1 - y0))
        guard n >= 0.25 * area, sum2 / n - (sum / n) * (sum / n) > 0.5 else { return (Float(start.0), Float(start.1), false) }
        // Costs already computed, so the sub-pixel fit reuses the search's neighbours.
        var known: [Int: Float] = [:]
        func cost(_ dx: Int, _ dy: Int) -> Float {
            let key = (dy &+ 32_768) &* 65_536 &+ (dx &+ 32_768)
            if let value = known[key] { return value }
            let value = rawCost(dx, dy)
            known[key] = value
            return value
        }
        func rawCost(_ dx: Int, _ dy: Int) -> Float {
            // Rows and columns whose displaced position lies inside the other frame.
            let ya = max(y0, -dy), yb = min(y1, o.height - dy), xa = max(x0, -dx), xb = min(x1, o.width - dx)
            guard yb > ya, xb > xa else { return .infinity }
            var total: Float = 0, weight: Float = 0
            r.values.withUnsafeBufferPointer { rv in r.mask.withUnsafeBufferPointer { rm in
            o.values.withUnsafeBufferPointer { ov in o.mask.withUnsafeBufferPointer { om in
                for y in ya..<yb {
                    let rr = y * r.width, or = (y + dy) * o.width + dx
                    for x in xa..<xb {
                        let m = rm[rr + x] * om[or + x]
                        let d = rv[rr + x] - ov[or + x]
                        total += m * d * d
                        weight += m
                    }
                }
            }}}}
            return weight >= 0.25 * area ? total / weight : .infinity
        }
        var best = (cost: Float.infinity, dx: start.0, dy: start.1)
        for dy in (start.1 - radius)...(start.1 + radius) {
            for dx in (start.0 - radius)...(start.0 + radius) {
                let c = cost(dx, dy)
                if c < best.cost { best = (c, dx, dy) }
            }
        }
        guard best.cost.isFinite else { return (Float(start.0), Float(start.1), false) }
        // Reliable only where the tile has structure in both directions well above the residual of its
        // best match (two noisy views of a flat wall match anywhere): its own one-pixel shifts must cost
        // clearly more than the match does.
        let selfX = Self.selfShiftCost(r, x0: x0, y0: y0, x1: x1, y1: y1, dx: 1, dy: 0)
        let selfY = Self.selfShiftCost(r, x0: x0, y0: y0, x1: x1, y1: y1, dx: 0, dy: 1)
        let reliable = min(selfX, selfY) > 3 * best.cost + 1
        var fx = Float(best.dx), fy = Float(best.dy)
        if subpixel {
            func vertex(_ minus: Float, _ centre: Float, _ plus: Float) -> Float {
                let curvature = minus - 2 * centre + plus
                guard minus.isFinite, plus.isFinite, curvature > 0 else { return 0 }
                return min(max(0.5 * (minus - plus) / curvature, -0.5), 0.5)
            }
            fx += vertex(cost(best.dx - 1, best.dy), best.cost, cost(best.dx + 1, best.dy))
            fy += vertex(cost(best.dx, best.dy - 1), best.cost, cost(best.dx, best.dy + 1))
        }
        return (fx, fy, reliable)
    }

    /// Masked mean squared difference between a tile of `r` and itself shifted by (dx, dy).
    static func selfShiftCost(_ r: MaskedLevel, x0: Int, y0: Int, x1: Int, y1: Int, dx: Int, dy: Int) -> Float {
        var total: Float = 0, weight: Float = 0
        r.values.withUnsafeBufferPointer { v in r.mask.withUnsafeBufferPointer { m in
            for y in y0..<min(y1, r.height - dy) {
                let a = y * r.width, b = (y + dy) * r.width + dx
                for x in x0..<min(x1, r.width - dx) {
                    let w = m[a + x] * m[b + x], d = v[a + x] - v[b + x]
                    total += w * d * d; weight += w
                }
            }
        }}
        return weight > 0 ? total / weight : 0
    }

    /// Least-squares affine model d = a·x + b·y + c of the reliable tiles' vectors (tile centres in level
    /// pixels), refitted twice without the tiles it explains worst; nil with fewer than six tiles.
    static func affineModel(_ dx: [Float], _ dy: [Float], reliable: [Bool], columns: Int, rows: Int, tile: Int)
        -> ((Double, Double) -> (Float, Float))? {
        var use = reliable
        var model: ([Double], [Double])?
        for _ in 0..<3 {
            var m = [Double](repeating: 0, count: 9), bx = [Double](repeating: 0, count: 3), by = bx
            var count = 0
            for i in use.indices where use[i] {
                let x = (Double(i % columns) + 0.5) * Double(tile), y = (Double(i / columns) + 0.5) * Double(tile)
                let f = [x, y, 1.0]
                for a in 0..<3 {
                    for b in 0..<3 { m[a * 3 + b] += f[a] * f[b] }
                    bx[a] += f[a] * Double(dx[i]); by[a] += f[a] * Double(dy[i])
                }
                count += 1
            }
            guard count >= 6, let cx = solve3(m, bx), let cy = solve3(m, by) else { break }
            model = (cx, cy)
            // Drop tiles far from the model (more than 3 × the median residual, at least one level pixel).
            var residuals: [(Int, Double)] = []
            for i in use.indices where use[i] {
                let x = (Double(i % columns) + 0.5) * Double(tile), y = (Double(i / columns) + 0.5) * Double(tile)
                let ex = Double(dx[i]) - (cx[0] * x + cx[1] * y + cx[2]), ey = Double(dy[i]) - (cy[0] * x + cy[1] * y + cy[2])
                residuals.append((i, (ex * ex + ey * ey).squareRoot()))
            }
            let median = residuals.map(\.1).sorted()[residuals.count / 2]
            for (i, e) in residuals where e > max(1, 3 * median) { use[i] = false }
        }
        guard let (cx, cy) = model else { return nil }
        return { x, y in (Float(cx[0] * x + cx[1] * y + cx[2]), Float(cy[0] * x + cy[1] * y + cy[2])) }
    }

    /// Solves the 3 × 3 system m · v = b (row-major m) by Cramer's rule; nil when singular.
    static func solve3(_ m: [Double], _ b: [Double]) -> [Double]? {
        func det(_ a: [Double]) -> Double {
            a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6])
        }
        let d = det(m)
        guard abs(d) > 1e-9 * max(1, abs(m[0] * m[4] * m[8])) else { return nil }
        return (0..<3).map { column in
            var a = m
            for row in 0..<3 { a[row * 3 + column] = b[row] }
            return det(a) / d
        }
    }

    /// Unreliable tiles take the median of their reliable neighbours (within 2 tiles), else `fallback`.
    static func fillUnreliable(_ dx: inout [Float], _ dy: inout [Float], reliable: [Bool], columns: Int, rows: Int,
                               fallback: (Float, Float)) {
        let sx = dx, sy = dy
        for r in 0..<rows {
            for c in 0..<columns where !reliable[r * columns + c] {
                var xs: [Float] = [], ys: [Float] = []
                for rr in max(0, r - 2)...min(rows - 1, r + 2) {
                    for cc in max(0, c - 2)...min(columns - 1, c + 2) where reliable[rr * columns + cc] {
                        xs.append(sx[rr * columns + cc]); ys.append(sy[rr * columns + cc])
                    }
                }
                dx[r * columns + c] = xs.isEmpty ? fallback.0 : xs.sorted()[xs.count / 2]
                dy[r * columns + c] = ys.isEmpty ? fallback.1 : ys.sorted()[ys.count / 2]
            }
        }
    }

    /// 3 × 3 median of a tile field (edges use the neighbours that exist).
    static func medianFilter(_ values: inout [Float], columns: Int, rows: Int) {
        let source = values
        for r in 0..<rows {
            for c in 0..<columns {
                var window: [Float] = []
                for rr in max(0, r - 1)...min(rows - 1, r + 1) {
                    for cc in max(0, c - 1)...min(columns - 1, c + 1) { window.append(source[rr * columns + cc]) }
                }
                window.sort()
                values[r * columns + c] = window.count % 2 == 1 ? window[window.count / 2]
                    : 0.5 * (window[window.count / 2 - 1] + window[window.count / 2])
            }
        }
    }

    /// out(x, y) = image(x + dx, y + dy), bilinear (8-bit fixed point), coordinates clamped to the image.
    static func warp(_ image: Raster<UInt8>, field: DisplacementField) -> Raster<UInt8> {
        let w = image.width, h = image.height
        var out = Raster<UInt8>(width: w, height: h, channels: 3)
        image.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                Parallel.forEachBand(height: h, bandHeight: 32) { rows in
                    let u = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * w), v = u + w
                    defer { u.deallocate() }
                    // Source positions in 8.8 fixed point, clamped to the image.
                    let maxX = (w - 1) << 8, maxY = (h - 1) << 8
                    for y in rows {
                        // Displacements in 1/256 px, stepped per tile run (no Float work per pixel).
                        field.dx.fillRow(y, width: w, scale: 256, into: u)
                        field.dy.fillRow(y, width: w, scale: 256, into: v)
                        let o = d + y * 3 * w
                        // Wrapping arithmetic (the fields are bounded): no overflow checks in the loop.
                        for x in 0..<w {
                            let ui = Int(u[x]), vi = Int(v[x])
                            let sx = min(max((x &<< 8) &+ ui, 0), maxX), sy = min(max((y &<< 8) &+ vi, 0), maxY)
                            let x0 = sx &>> 8, y0 = sy &>> 8, fx = sx & 255, fy = sy & 255
                            let x1 = x0 &+ (x0 < w &- 1 ? 1 : 0), y1 = y0 &+ (y0 < h &- 1 ? 1 : 0)
                            let p00 = s + (y0 &* w &+ x0) &* 3, p01 = s + (y0 &* w &+ x1) &* 3
                            let p10 = s + (y1 &* w &+ x0) &* 3, p11 = s + (y1 &* w &+ x1) &* 3
                            let gx = 256 &- fx, gy = 256 &- fy
                            @inline(__always) func tap(_ c: Int) -> UInt8 {
                                let top = Int(p00[c]) &* gx &+ Int(p01[c]) &* fx, bottom = Int(p10[c]) &* gx &+ Int(p11[c]) &* fx
                                return UInt8(truncatingIfNeeded: (top &* gy &+ bottom &* fy &+ 32768) &>> 16)
                            }
                            o[3 &* x] = tap(0)
                            o[3 &* x &+ 1] = tap(1)
                            o[3 &* x &+ 2] = tap(2)
                        }
                    }
                }
            }
        }
        return out
    }
}

/// One pyramid level of a frame brought to the darker frame's grey levels, with a mask (1 where the level
/// is informative, fractions after halving) — internal to ``TileAlignment``.
struct MaskedLevel: Sendable {
    let width: Int, height: Int
    var values: [Float]
    var mask: [Float]

    init(_ grey: GreyImage, pair: ExposurePair, isReference: Bool) {
        width = grey.width; height = grey.height
        let table = (0..<256).map { pair.darkLevel(UInt8($0), isReference: isReference) }
        let informative = (0..<256).map { pair.informative(UInt8($0), isReference: isReference) ? Float(1) : 0 }
        values = grey.pixels.map { table[Int($0)] }
        mask = grey.pixels.map { informative[Int($0)] }
    }

    init(width: Int, height: Int, values: [Float], mask: [Float]) {
        self.width = width; self.height = height; self.values = values; self.mask = mask
    }

    /// 2 × 2 means (values weighted by the mask).
    func halved() -> MaskedLevel {
        let nw = max(1, width / 2), nh = max(1, height / 2), w = width, h = height
        var v = [Float](repeating: 0, count: nw * nh), m = [Float](repeating: 0, count: nw * nh)
        values.withUnsafeBufferPointer { vs in mask.withUnsafeBufferPointer { ms in
            v.withUnsafeMutableBufferPointer { vd in m.withUnsafeMutableBufferPointer { md in
                for y in 0..<nh {
                    let a = min(2 * y, h - 1) * w, b = min(2 * y + 1, h - 1) * w
                    for x in 0..<nw {
                        let x0 = min(2 * x, w - 1), x1 = min(2 * x + 1, w - 1)
                        let sm = ms[a + x0] + ms[a + x1] + ms[b + x0] + ms[b + x1]
                        let sv = vs[a + x0] * ms[a + x0] + vs[a + x1] * ms[a + x1] + vs[b + x0] * ms[b + x0] + vs[b + x1] * ms[b + x1]
                        vd[y * nw + x] = sm > 0 ? sv / sm : 0
                        md[y * nw + x] = 0.25 * sm
                    }
                }
            }}
        }}
        return MaskedLevel(width: nw, height: nh, values: v, mask: m)
    }
}
