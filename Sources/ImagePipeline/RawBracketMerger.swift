import CaptureCore
import Foundation

/// Merges an exposure bracket's raw frames (one sensor, different exposures) into one raw frame of wider range, as a
/// phone's HDR merges its frames before it renders: the developed result keeps what the darkest frame holds of a
/// window's view and what the brightest holds of the shadows.
///
/// Each frame is aligned to the reference by a global translation (even shifts, so the CFA phase is kept) estimated on
/// exposure-matched 2 × 2-quad luma, and judged tile by tile against the reference with the shared `RobustMerge` rule
/// where both are within range, so a moving thing is taken from the reference alone. Per CFA quad, every frame not
/// clipped there contributes its black-subtracted value brought to the reference's exposure, weighted by its exposure
/// (the photon-noise optimum). The reference (never shifted) always counts where it is not clipped, so a quad with no
/// value in range is one the reference clipped and no other frame holds (clipped, judged to differ, or shifted out of
/// the image): it stays white, at the top of the range.
///
/// The result is a 16-bit raw whose full scale is the darkest frame's clip level at the reference's exposure: its
/// `baselineExposure` is the reference's plus log2 of that range, so the ISP renders it at the reference's brightness
/// with every highlight the darkest frame kept (its local tone mapping then brings them into view).
public enum RawBracketMerger {
    /// Side of the tiles the robust merge judges, in pixels.
    static let tileSize = 16

    /// The merged frame and each frame's shift (the content at the reference's (x, y) is at the frame's
    /// (x + dx, y + dy)). `exposures` are the frames' relative exposures (duration × ISO); `reference` the frame whose
    /// geometry, colour and metadata the result keeps. Nil when the frames do not share size and CFA, the exposures
    /// are not positive, or there are fewer than two frames.
    public static func merge(_ frames: [RawImage], exposures: [Double], reference: Int)
        -> (raw: RawImage, shifts: [(dx: Int, dy: Int)])? {
        guard frames.count >= 2, exposures.count == frames.count, frames.indices.contains(reference),
              exposures.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        let base = frames[reference], w = base.width, h = base.height
        guard w >= 4, h >= 4, frames.allSatisfy({ $0.width == w && $0.height == h && $0.cfa == base.cfa }) else { return nil }
        let n = frames.count
        // Each frame's scale to the reference's exposure, and its black level and clip code per CFA position.
        let ratios = exposures.map { Float(exposures[reference] / $0) }
        let blacks = frames.map { f in (0..<4).map { f.blackLevel.isEmpty ? Float(0) : f.blackLevel[$0 % f.blackLevel.count] } }
        let ranges = frames.indices.map { k in (0..<4).map { max(1, Float(frames[k].whiteLevel) - blacks[k][$0]) } }
        let clipCodes = frames.map(\.clipCode)
        let widest = ratios.max()!
        // Quad luma at the reference's exposure, and where a quad holds a clipped sample (its sum is then a lower bound).
        let lumas = frames.indices.map { k in RawFrameMerger.quadLuma(frames[k]).scaled(by: ratios[k]) }
        let clipped = frames.map(clippedQuads)
        let quadClip = frames.indices.map { k in Float(4 * (Int(clipCodes[k]) - Int(blacks[k].min() ?? 0))) * ratios[k] }
        var shifts = [(dx: Int, dy: Int)](repeating: (0, 0), count: n)
        var weights = [TileGrid?](repeating: nil, count: n)
        for k in frames.indices where k != reference {
            // Aligned on luma both frames hold: clamped at the lower of their clip levels.
            let ceiling = min(quadClip[k], quadClip[reference])
            shifts[k] = RawFrameMerger.estimateShift(lumas[reference].clamped(to: ceiling), lumas[k].clamped(to: ceiling))
            weights[k] = consistency(lumas[reference], clipped[reference], lumas[k], clipped[k], shift: shifts[k],
                                     reference: base, ratio: ratios[k], width: w, height: h)
        }

        var out = Raster<UInt16>(width: w, height: h)
        let outBlack = blacks[reference], scale = (0..<4).map { (65_535 - outBlack[$0]) / widest }
        RawFrameMerger.withFramePointers(frames) { sources in
            out.storage.withUnsafeMutableBufferPointer { dst in
                let dst = dst.baseAddress!
                Parallel.forEachBand(height: h / 2) { quadRows in
                    let rowWeights = UnsafeMutablePointer<Float>.allocate(capacity: n * w)
                    defer { rowWeights.deallocate() }
                    for qy in quadRows {
                        let y = 2 * qy
                        for k in 0..<n {
                            if let grid = weights[k] { grid.fillRow(y, width: w, into: rowWeights + k * w) }
                            else { (rowWeights + k * w).update(repeating: 1, count: w) }
                        }
                        for x in stride(from: 0, to: w - 1, by: 2) {
                            var sums = SIMD4<Float>(), total: Float = 0
                            for k in 0..<n {
                                let sx = x + shifts[k].dx, sy = y + shifts[k].dy
                                guard sx >= 0, sx + 1 < w, sy >= 0, sy + 1 < h else { continue }
                                let top = sources[k] + sy * w + sx, bottom = top + w
                                let q = SIMD4(top[0], top[1], bottom[0], bottom[1])
                                guard q.max() < clipCodes[k] else { continue }
                                let weight = rowWeights[k * w + x] / ratios[k]
                                guard weight > 0 else { continue }
                                let b = blacks[k]
                                let values = (SIMD4<Float>(Float(q[0]), Float(q[1]), Float(q[2]), Float(q[3]))
                                              - SIMD4(b[0], b[1], b[2], b[3])) / SIMD4(ranges[k][0], ranges[k][1], ranges[k][2], ranges[k][3])
                                sums += weight * values * ratios[k]
                                total += weight
                            }
                            // Nothing in range (the reference clipped, no other frame holds it): white.
                            let merged = total > 0 ? sums / total : SIMD4(repeating: widest)
                            let top = dst + y * w + x, bottom = top + w
                            for i in 0..<4 {
                                let code = (outBlack[i] + min(max(merged[i], 0), widest) * scale[i]).rounded()
                                let p = i < 2 ? top + i : bottom + (i - 2)
                                p.pointee = UInt16(min(max(code, 0), 65_535))
                            }
                        }
                    }
                }
            }
        }
        // An odd last row or column: the reference's own samples, scaled into the new range.
        func copyReference(x: Int, y: Int) {
            let i = (y & 1) << 1 | (x & 1)
            let v = (Float(base.bayer[x, y]) - outBlack[i]) / ranges[reference][i]
            out[x, y] = UInt16(min(max((outBlack[i] + max(v, 0) * scale[i]).rounded(), 0), 65_535))
        }
        if w % 2 == 1 { for y in 0..<h { copyReference(x: w - 1, y: y) } }
        if h % 2 == 1 { for x in 0..<w { copyReference(x: x, y: h - 1) } }
        var merged = base
        merged.bayer = out
        merged.bitDepth = 16
        merged.whiteLevel = 65_535
        merged.baselineExposure = base.baselineExposure + Double(log2(widest))
        // Noise in the new units (value / widest): the reference's profile, scaled.
        let r = Double(widest)
        merged.noiseProfile = base.noiseProfile.map { (scale: $0.scale / r, offset: $0.offset / (r * r)) }
        merged.exposure.frameCount = n
        return (merged, shifts)
    }

    /// Per 2 × 2 quad (row-major, `width / 2` across): whether any of its samples is at the clip level.
    static func clippedQuads(_ raw: RawImage) -> [Bool] {
        let w = raw.width, qw = w / 2, qh = raw.height / 2, clip = raw.clipCode
        return raw.bayer.storage.withUnsafeBufferPointer { c in
            (0..<(qw * qh)).map { q in
                let top = c.baseAddress! + 2 * (q / qw) * w + 2 * (q % qw), bottom = top + w
                return max(max(top[0], top[1]), max(bottom[0], bottom[1])) >= clip
            }
        }
    }

    /// Per-tile weights of frame b (displaced by `shift`) against the reference a, both quad luma at the reference's
    /// exposure with their clipped quads marked (`aClipped`, `bClipped`: there the sum is a lower bound of the scene):
    /// the mean absolute difference over quads clipped in neither, and where one is clipped, how far the other falls
    /// below its bound; against what the noise profile predicts for the pair (the frame's read noise scaled by `ratio`²,
    /// its photon noise by `ratio`) and, on edges, a quarter of the reference's slope.
    static func consistency(_ a: Raster<Float>, _ aClipped: [Bool], _ b: Raster<Float>, _ bClipped: [Bool],
                            shift: (dx: Int, dy: Int), reference: RawImage, ratio: Float, width: Int, height: Int) -> TileGrid {
        let qw = a.width, qh = a.height, qdx = shift.dx / 2, qdy = shift.dy / 2, quads = tileSize / 2
        let columns = (width + tileSize - 1) / tileSize, rows = (height + tileSize - 1) / tileSize
        let black = reference.blackLevel.isEmpty ? 0 : reference.blackLevel.reduce(0, +) / Float(reference.blackLevel.count)
        let range = max(1, Float(reference.whiteLevel) - black)
        let profile = reference.noiseProfile
        let noiseScale = profile.isEmpty ? 0 : Float(profile.map(\.scale).reduce(0, +) / Double(profile.count))
        let noiseOffset = profile.isEmpty ? 0 : Float(profile.map(\.offset).reduce(0, +) / Double(profile.count))
        var differences = [Float](repeating: 0, count: columns * rows), noise = differences
        a.storage.withUnsafeBufferPointer { pa in
            b.storage.withUnsafeBufferPointer { pb in
                for r in 0..<rows {
                    for c in 0..<columns {
                        var total: Float = 0, level: Float = 0, count: Float = 0, slope: Float = 0
                        for y in (r * quads)..<min(qh, (r + 1) * quads) where y + qdy >= 0 && y + qdy < qh {
                            for x in (c * quads)..<min(qw, (c + 1) * quads) where x + qdx >= 0 && x + qdx < qw {
                                let ia = y * qw + x, ib = (y + qdy) * qw + x + qdx
                                let va = pa[ia], vb = pb[ib], ca = aClipped[ia], cb = bClipped[ib]
                                // Clipped in both: nothing to compare. In one: the other frame should reach its bound.
                                guard !(ca && cb) else { continue }
                                total += ca ? max(0, va - vb) : cb ? max(0, vb - va) : abs(va - vb)
                                level += va
                                count += 1
                                // The reference's own slope.
                                let right = pa[y * qw + min(x + 1, qw - 1)], below = pa[min(y + 1, qh - 1) * qw + x]
                                let left = pa[y * qw + max(x - 1, 0)], above = pa[max(y - 1, 0) * qw + x]
                                slope += max(max(abs(right - va), abs(below - va)), max(abs(left - va), abs(above - va)))
                            }
                        }
                        let k = r * columns + c
                        guard count > 0 else { differences[k] = 0; noise[k] = 1; continue }
                        differences[k] = total / count
                        // σ of a quad sum (4 samples) at this level in the reference, and in the frame (× ratio, its
                        // photon noise at its own exposure): mean |difference| of two Gaussians ≈ 1.128 σ_pair.
                        let signal = max(level / count / 4 / range, 0)
                        let referenceVariance = 4 * max(noiseScale * signal + noiseOffset, 0)
                        let frameVariance = 4 * max(ratio * noiseScale * signal + ratio * ratio * noiseOffset, 0)
                        let pair = (referenceVariance + frameVariance).squareRoot() * range
                        // Frames taken moments apart are also apart by a hand's sub-pixel shake that whole-quad alignment
                        // leaves: on edges, allow a quarter of a quad's step of the reference's own slope.
                        noise[k] = profile.isEmpty ? .infinity : max(0.5, 1.128 * pair, 0.25 * slope / count)
                    }
                }
            }
        }
        if profile.isEmpty {
            // Without a profile: the median tile's difference stands for the noise.
            let median = differences.sorted()[differences.count / 2]
            noise = Array(repeating: max(0.5, median), count: differences.count)
        }
        return RobustMerge.weights(differences: differences, noise: noise, tileSize: tileSize, columns: columns, rows: rows)
    }
}

private extension Raster where Element == Float {
    func scaled(by factor: Float) -> Raster<Float> {
        var copy = self
        for i in copy.storage.indices { copy.storage[i] *= factor }
        return copy
    }

    func clamped(to ceiling: Float) -> Raster<Float> {
        var copy = self
        for i in copy.storage.indices { copy.storage[i] = Swift.min(copy.storage[i], ceiling) }
        return copy
    }
}
