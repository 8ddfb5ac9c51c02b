import CaptureCore

/// Finds what moved between the frames of a bracket: per 16-pixel tile, each frame's mean disagreement with
/// the reference once both are at one exposure (`ExposurePair`, at half resolution), against what the
/// bracket's static tiles show (their median) or, on edges, half a full-resolution pixel of the reference's own slope —
/// the shared `RobustMerge` rule turns that into weights —
/// and fills what a frame's weights reject with the reference's content at that frame's exposure.
/// Frames should be aligned first. ``ExposureFusion/fuse(_:deghostingAgainst:progress:)`` uses it.
public struct GhostDetector: Sendable {
    /// Tile side in full-resolution pixels.
    public var tileSize = 16

    public init(tileSize: Int = 16) { self.tileSize = max(2, tileSize) }

    /// For each frame, weights (nil for the reference) that keep it only where it agrees with the
    /// reference: 1 where it does, 0 where it does not (something moved), for ``ExposureFusion/fuse(_:consistency:progress:)``.
    public func consistency(_ images: [Raster<UInt8>], reference: Int) -> [TileGrid?] {
        let width = images[0].width, height = images[0].height
        guard width >= 2 * tileSize, height >= 2 * tileSize else { return images.map { _ in nil } }
        let greys = Parallel.map(count: images.count) { ExposureAlignment.halfGrey(images[$0]) }
        let ref = greys[reference]
        let columns = (width + tileSize - 1) / tileSize, rows = (height + tileSize - 1) / tileSize
        let step = tileSize / 2, gw = ref.width, gh = ref.height
        return greys.indices.map { k -> TileGrid? in
            guard k != reference else { return nil }
            let pair = ExposurePair(reference: ref, other: greys[k])
            let other = greys[k]
            let perRow = Parallel.map(count: rows) { r -> [(Float, Float, Float)] in
                ref.pixels.withUnsafeBufferPointer { rp in
                    other.pixels.withUnsafeBufferPointer { op in
                        (0..<columns).map { c -> (Float, Float, Float) in
                            var sum: Float = 0, n = 0, twoSided = 0, gradient: Float = 0
                            for y in (r * step)..<min(gh, (r + 1) * step) {
                                for x in (c * step)..<min(gw, (c + 1) * step) {
                                    let a = rp[y * gw + x], b = op[y * gw + x]
                                    sum += pair.difference(reference: a, other: b)
                                    if pair.levels(reference: a, other: b).twoSided { twoSided += 1 }
                                    // The reference's own slope, in the darker frame's levels.
                                    let here = pair.darkLevel(a, isReference: true)
                                    let right = pair.darkLevel(rp[y * gw + min(x + 1, gw - 1)], isReference: true)
                                    let below = pair.darkLevel(rp[min(y + 1, gh - 1) * gw + x], isReference: true)
                                    gradient += max(abs(right - here), abs(below - here))
                                    n += 1
                                }
                            }
                            return n > 0 ? (sum / Float(n), Float(twoSided) / Float(n), gradient / Float(n)) : (0, 0, 0)
                        }
                    }
                }
            }
            let differences = perRow.flatMap { $0.map(\.0) }, twoSidedShare = perRow.flatMap { $0.map(\.1) }
            let gradients = perRow.flatMap { $0.map(\.2) }
            // Noise (and residual misalignment) of this pair: the median over tiles that are mostly comparable.
            let informative = differences.indices.filter { twoSidedShare[$0] > 0.5 }.map { differences[$0] }.sorted()
            let noise = max(1, informative.isEmpty ? 1 : informative[informative.count / 2])
            // Edges also differ by what alignment leaves and by motion blur: allow a quarter of a half-resolution
            // pixel of the reference's own slope on top of the noise.
            let expected = gradients.map { max(noise, 0.25 * $0) }
            return RobustMerge.weights(differences: differences, noise: expected,
                                       tileSize: tileSize, columns: columns, rows: rows)
        }
    }

    /// Replaces in every frame but the reference what its `weights` reject by the reference's own pixels
    /// brought to that frame's exposure (per-channel histogram matching), blended by the weight, so no
    /// pyramid level of a fusion can leak a moving object at low frequency. Works in place (no copy of a
    /// frame whose storage is not shared).
    public func fill(_ images: inout [Raster<UInt8>], reference: Int, weights: [TileGrid?]) {
        guard images.indices.contains(reference), weights.count == images.count else { return }
        let referenceImage = images[reference]
        let w = referenceImage.width, h = referenceImage.height
        for k in images.indices where k != reference && images[k].channels == 3 && images[k].size == referenceImage.size {
            guard let map = weights[k], map.values.contains(where: { $0 < 1 }) else { continue }
            // Reference level → this frame's level, per channel (every 4th pixel suffices for histograms).
            let tables: [[UInt8]] = (0..<3).map { c in
                var from = [Double](repeating: 0, count: 256), to = from
                referenceImage.storage.withUnsafeBufferPointer { rp in
                    images[k].storage.withUnsafeBufferPointer { fp in
                        var i = c
                        while i < rp.count {
                            from[Int(rp[i])] += 1; to[Int(fp[i])] += 1
                            i += 12
                        }
                    }
                }
                return ExposurePair.matching(from: from, to: to).map { UInt8(min(max($0.rounded(), 0), 255)) }
            }
            let lut = tables[0] + tables[1] + tables[2]
            let rejects = (0..<map.rows).map { r in (0..<map.columns).contains { map[$0, r] < 1 } }
            referenceImage.storage.withUnsafeBufferPointer { rp in
                images[k].storage.withUnsafeMutableBufferPointer { fp in
                    lut.withUnsafeBufferPointer { tp in
                        let r = rp.baseAddress!, f = fp.baseAddress!, t = tp.baseAddress!
                        Parallel.forEachBand(height: h) { rows in
                            let m = UnsafeMutablePointer<Float>.allocate(capacity: w)
                            defer { m.deallocate() }
                            for y in rows {
                                // Rows between tile rows that keep everything need no work.
                                let (r0, r1) = map.tileRows(around: y)
                                if !rejects[r0] && !rejects[r1] { continue }
                                map.fillRow(y, width: w, into: m)
                                for x in 0..<w where m[x] < 1 {
                                    let keep = m[x]
                                    for c in 0..<3 {
                                        let i = (y * w + x) * 3 + c
                                        let v = keep * Float(f[i]) + (1 - keep) * Float(t[c * 256 + Int(r[i])])
                                        f[i] = UInt8(min(max(v.rounded(), 0), 255))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
