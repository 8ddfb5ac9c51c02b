import CaptureCore

/// Multi-frame merge for still-image stabilisation (the "align and merge" of HDR+, translation only).
public enum RawFrameMerger {
    /// Side of the tiles the robust merge judges, in pixels (8 × 8 CFA quads).
    static let tileSize = 16

    /// Aligns every frame to the first by a global translation (`estimateShift`), then averages the
    /// black-subtracted Bayer codes that overlap, each frame weighted tile by tile by the shared
    /// `RobustMerge` rule: where a frame differs from the first by more than its noise profile explains
    /// (something moved), it is left out, so moving things do not ghost. Where the first frame is clipped
    /// the result stays clipped. The noise profile is divided by the frame count (what static areas
    /// reach; moving areas keep more noise) and `exposure.frameCount` is the number of frames merged.
    public static func merge(_ frames: [RawImage]) -> RawImage {
        guard let reference = frames.first else { preconditionFailure("merge needs at least one frame") }
        guard frames.count > 1 else { return reference }
        let w = reference.width, h = reference.height
        precondition(frames.allSatisfy { $0.width == w && $0.height == h && $0.cfa == reference.cfa },
                     "frames must share size and CFA")
        let shifts = frames.map { estimateShift(reference, $0) }
        let referenceLuma = quadLuma(reference)
        let weights: [TileGrid?] = frames.indices.map { i in
            i == 0 ? nil : consistency(reference, referenceLuma: referenceLuma, frame: frames[i], shift: shifts[i])
        }
        let black = (0..<4).map { reference.blackLevel.isEmpty ? 0 : reference.blackLevel[$0 % reference.blackLevel.count] }
        let white = UInt16(clamping: reference.whiteLevel)
        var out = Raster<UInt16>(width: w, height: h)
        withFramePointers(frames) { sources in
            out.storage.withUnsafeMutableBufferPointer { dst in
                let dst = dst.baseAddress!
                Parallel.forEachBand(height: h) { rows in
                    let rowWeights = UnsafeMutablePointer<Float>.allocate(capacity: frames.count * w)
                    defer { rowWeights.deallocate() }
                    for y in rows {
                        for (i, grid) in weights.enumerated() {
                            if let grid { grid.fillRow(y, width: w, into: rowWeights + i * w) } else { (rowWeights + i * w).update(repeating: 1, count: w) }
                        }
                        for x in 0..<w {
                            let ref = sources[0][y * w + x]
                            if ref >= white { dst[y * w + x] = white; continue }
                            let b = black[(y & 1) << 1 | (x & 1)]
                            var sum: Float = 0, count: Float = 0
                            for (i, s) in shifts.enumerated() {
                                let sx = x + s.dx, sy = y + s.dy
                                guard sx >= 0, sx < w, sy >= 0, sy < h else { continue }
                                let weight = rowWeights[i * w + x]
                                sum += weight * (Float(sources[i][sy * w + sx]) - b)
                                count += weight
                            }
                            let v = (b + sum / count).rounded()
                            dst[y * w + x] = UInt16(min(max(v, 0), Float(white)))
                        }
                    }
                }
            }
        }
        var merged = reference
        merged.bayer = out
        let n = Double(frames.count)
        merged.noiseProfile = reference.noiseProfile.map { (scale: $0.scale / n, offset: $0.offset / n) }
        merged.exposure.frameCount = frames.count
        return merged
    }

    /// Per-tile weights of `frame` (displaced by `shift`) against the reference: the mean absolute
    /// difference of their 2×2-quad sums against what the noise profile predicts for two independent
    /// quads at the reference's level (√(2/π) · √2 · σ_quad); without a profile, against the median tile.
    static func consistency(_ reference: RawImage, referenceLuma a: Raster<Float>, frame: RawImage,
                            shift: (dx: Int, dy: Int)) -> TileGrid {
        let b = quadLuma(frame)
        let qw = a.width, qh = a.height, qdx = shift.dx / 2, qdy = shift.dy / 2, quads = tileSize / 2
        let columns = (reference.width + tileSize - 1) / tileSize, rows = (reference.height + tileSize - 1) / tileSize
        var differences = [Float](repeating: 0, count: columns * rows), levels = differences
        a.storage.withUnsafeBufferPointer { pa in
            b.storage.withUnsafeBufferPointer { pb in
                for r in 0..<rows {
                    for c in 0..<columns {
                        var total: Float = 0, level: Float = 0, n: Float = 0
                        for y in (r * quads)..<min(qh, (r + 1) * quads) where y + qdy >= 0 && y + qdy < qh {
                            for x in (c * quads)..<min(qw, (c + 1) * quads) where x + qdx >= 0 && x + qdx < qw {
                                let va = pa[y * qw + x]
                                total += abs(va - pb[(y + qdy) * qw + x + qdx])
                                level += va; n += 1
                            }
                        }
                        differences[r * columns + c] = n > 0 ? total / n : 0
                        levels[r * columns + c] = n > 0 ? level / n : 0
                    }
                }
            }
        }
        let noise: [Float]
        let range = Float(reference.whiteLevel) - (reference.blackLevel.isEmpty ? 0 : reference.blackLevel.reduce(0, +) / Float(reference.blackLevel.count))
        if !reference.noiseProfile.isEmpty, range > 0 {
            let scale = Float(reference.noiseProfile.map(\.scale).reduce(0, +) / Double(reference.noiseProfile.count))
            let offset = Float(reference.noiseProfile.map(\.offset).reduce(0, +) / Double(reference.noiseProfile.count))
            noise = levels.map { quadSum in
                let signal = max(quadSum / 4 / range, 0)
                let quadSigma = (4 * max(scale * signal + offset, 0)).squareRoot() * range
                return max(0.5, 1.128 * quadSigma)
            }
        } else {
            let median = differences.sorted()[differences.count / 2]
            noise = Array(repeating: max(0.5, median), count: differences.count)
        }
        return RobustMerge.weights(differences: differences, noise: noise, tileSize: tileSize, columns: columns, rows: rows)
    }

    /// The translation of `b` relative to `a`: the content at a(x, y) is found at b(x + dx, y + dy).
    /// Estimated coarse-to-fine by sum of absolute differences on a pyramid of 2×2-quad luma images
    /// (which averages the noise away), so both shifts are even and the CFA phase is kept.
    public static func estimateShift(_ a: RawImage, _ b: RawImage) -> (dx: Int, dy: Int) {
        estimateShift(quadLuma(a), quadLuma(b))
    }

    /// The same from two quad-luma images (`quadLuma`, or brought to one exposure first).
    static func estimateShift(_ a: Raster<Float>, _ b: Raster<Float>) -> (dx: Int, dy: Int) {
        var pa = [a], pb = [b]
        while min(pa.last!.width, pa.last!.height) >= 64 {
            pa.append(halve(pa.last!))
            pb.append(halve(pb.last!))
        }
        var dx = 0, dy = 0
        for level in stride(from: pa.count - 1, through: 0, by: -1) {
            dx *= 2; dy *= 2
            let radius = level == pa.count - 1 ? 6 : 1
            var best = (cost: Double.infinity, dx: dx, dy: dy)
            for cy in (dy - radius)...(dy + radius) {
                for cx in (dx - radius)...(dx + radius) {
                    let c = sad(pa[level], pb[level], cx, cy)
                    if c < best.cost { best = (c, cx, cy) }
                }
            }
            dx = best.dx; dy = best.dy
        }
        return (2 * dx, 2 * dy)
    }

    /// Mean absolute difference between a(x, y) and b(x + dx, y + dy) over the overlap (∞ if too small).
    static func sad(_ a: Raster<Float>, _ b: Raster<Float>, _ dx: Int, _ dy: Int) -> Double {
        let w = a.width, h = a.height
        let x0 = max(0, -dx), x1 = min(w, w - dx), y0 = max(0, -dy), y1 = min(h, h - dy)
        guard x1 - x0 >= w / 2, y1 - y0 >= h / 2 else { return .infinity }
        var total = 0.0
        a.storage.withUnsafeBufferPointer { pa in
            b.storage.withUnsafeBufferPointer { pb in
                for y in y0..<y1 {
                    var row: Float = 0
                    let ra = pa.baseAddress! + y * w, rb = pb.baseAddress! + (y + dy) * w + dx
                    for x in x0..<x1 { row += abs(ra[x] - rb[x]) }
                    total += Double(row)
                }
            }
        }
        return total / Double((x1 - x0) * (y1 - y0))
    }

    /// Sum of each 2×2 CFA quad (one colour-balanced luma-like sample per quad), black removed.
    static func quadLuma(_ raw: RawImage) -> Raster<Float> {
        let w = raw.width, qw = w / 2, qh = raw.height / 2
        let black = (0..<4).reduce(Float(0)) { $0 + (raw.blackLevel.isEmpty ? 0 : raw.blackLevel[$1 % raw.blackLevel.count]) }
        var out = Raster<Float>(width: qw, height: qh)
        raw.bayer.storage.withUnsafeBufferPointer { c in
            for y in 0..<qh {
                let r0 = c.baseAddress! + 2 * y * w, r1 = r0 + w
                for x in 0..<qw {
                    out.storage[y * qw + x] = Float(r0[2 * x]) + Float(r0[2 * x + 1]) + Float(r1[2 * x]) + Float(r1[2 * x + 1]) - black
                }
            }
        }
        return out
    }

    /// 2×2 box down-sampling.
    static func halve(_ image: Raster<Float>) -> Raster<Float> {
        let w = image.width / 2, h = image.height / 2, s = image.width
        var out = Raster<Float>(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let i = 2 * y * s + 2 * x
                out.storage[y * w + x] = 0.25 * (image.storage[i] + image.storage[i + 1] + image.storage[i + s] + image.storage[i + s + 1])
            }
        }
        return out
    }

    /// Runs `body` with a base pointer to every frame's Bayer codes.
    static func withFramePointers<R>(_ frames: [RawImage], _ body: ([UnsafePointer<UInt16>]) -> R) -> R {
        func recurse(_ i: Int, _ acc: [UnsafePointer<UInt16>]) -> R {
            if i == frames.count { return body(acc) }
            return frames[i].bayer.storage.withUnsafeBufferPointer { recurse(i + 1, acc + [$0.baseAddress!]) }
        }
        return recurse(0, [])
    }
}
