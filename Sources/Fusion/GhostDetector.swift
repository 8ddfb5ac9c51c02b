import CaptureCore

/// Finds what moved between the frames of a bracket: per 16-pixel tile, each frame's mean disagreement with
/// the reference once both are at one exposure (`ExposurePair`, at half resolution), against what the
/// bracket's static tiles show (their median) — the shared `RobustMerge` rule turns that into weights.
/// Frames should be aligned first.
struct GhostDetector {
    /// Tile side in full-resolution pixels.
    var tileSize = 16

    /// For each frame, weights (nil for the reference) that keep it only where it agrees with the reference.
    func consistency(_ images: [Raster<UInt8>], reference: Int) -> [TileGrid?] {
        let width = images[0].width, height = images[0].height
        guard width >= 2 * tileSize, height >= 2 * tileSize else { return images.map { _ in nil } }
        let greys = Parallel.map(count: images.count) { ExposureAlignment().greyPyramid(images[$0], levels: 2)[1] }
        let ref = greys[reference]
        let columns = (width + tileSize - 1) / tileSize, rows = (height + tileSize - 1) / tileSize
        let step = tileSize / 2, gw = ref.width, gh = ref.height
        return greys.indices.map { k -> TileGrid? in
            guard k != reference else { return nil }
            let pair = ExposurePair(reference: ref, other: greys[k])
            var differences = [Float](repeating: 0, count: columns * rows)
            var twoSidedShare = [Float](repeating: 0, count: columns * rows)
            ref.pixels.withUnsafeBufferPointer { rp in
                greys[k].pixels.withUnsafeBufferPointer { op in
                    for r in 0..<rows {
                        for c in 0..<columns {
                            var sum: Float = 0, n = 0, twoSided = 0
                            for y in (r * step)..<min(gh, (r + 1) * step) {
                                for x in (c * step)..<min(gw, (c + 1) * step) {
                                    let a = rp[y * gw + x], b = op[y * gw + x]
                                    sum += pair.difference(reference: a, other: b)
                                    if pair.levels(reference: a, other: b).twoSided { twoSided += 1 }
                                    n += 1
                                }
                            }
                            differences[r * columns + c] = n > 0 ? sum / Float(n) : 0
                            twoSidedShare[r * columns + c] = n > 0 ? Float(twoSided) / Float(n) : 0
                        }
                    }
                }
            }
            // Noise (and residual misalignment) of this pair: the median over tiles that are mostly comparable.
            let informative = differences.indices.filter { twoSidedShare[$0] > 0.5 }.map { differences[$0] }.sorted()
            let noise = max(1, informative.isEmpty ? 1 : informative[informative.count / 2])
            return RobustMerge.weights(differences: differences, noise: Array(repeating: noise, count: differences.count),
                                       tileSize: tileSize, columns: columns, rows: rows)
        }
    }
}
