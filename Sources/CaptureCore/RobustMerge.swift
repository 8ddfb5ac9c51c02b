/// The robust-merge rule shared by OpenCapture's multi-frame merges — exposure fusion's deghosting and
/// still-image stabilisation's raw merge (in the spirit of HDR+'s merge): an aligned frame counts in a
/// tile only as far as it agrees with the reference there.
///
/// Each caller measures, per tile, the mean absolute difference between the frame (brought to the
/// reference's exposure) and the reference, and the difference that noise alone would give. Their
/// ratio z decides: z ≤ `acceptBelow` counts fully, z ≥ `rejectAbove` not at all, linear between.
/// A rejected tile also rejects its eight neighbours (a moving object's edge can fall anywhere in a tile).
public enum RobustMerge {
    /// Ratio of measured to noise-only difference at or below which a tile counts fully.
    public static let acceptBelow: Float = 2.5
    /// Ratio at or above which a tile is rejected.
    public static let rejectAbove: Float = 5

    /// The weight of a tile whose difference is `difference` where noise alone gives `noise`.
    @inline(__always)
    public static func weight(difference: Float, noise: Float) -> Float {
        guard difference.isFinite, noise > 0 else { return difference.isNaN ? 0 : (difference <= 0 ? 1 : 0) }
        let z = difference / noise
        return min(max((rejectAbove - z) / (rejectAbove - acceptBelow), 0), 1)
    }

    /// Per-tile weights from per-tile `differences` and `noise` (same layout as the grid), each tile
    /// then lowered to the smallest weight in its 3 × 3 neighbourhood.
    public static func weights(differences: [Float], noise: [Float], tileSize: Int, columns: Int, rows: Int) -> TileGrid {
        let count = columns * rows
        precondition(differences.count == count && noise.count == count, "one difference and one noise figure per tile")
        let raw = (0..<count).map { weight(difference: differences[$0], noise: noise[$0]) }
        var spread = raw
        for r in 0..<rows {
            for c in 0..<columns {
                var m = raw[r * columns + c]
                for rr in max(0, r - 1)...min(rows - 1, r + 1) {
                    for cc in max(0, c - 1)...min(columns - 1, c + 1) { m = min(m, raw[rr * columns + cc]) }
                }
                spread[r * columns + c] = m
            }
        }
        return TileGrid(tileSize: tileSize, columns: columns, rows: rows, values: spread)
    }
}
