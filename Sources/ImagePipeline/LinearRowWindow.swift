/// The rows of linear camera RGB one worker of the ISP's lens-correcting run holds: a window that slides down the
/// frame as the worker's output bands need their source rows (where the lens put them), demosaiced a chunk at a time
/// ahead of need and stored as `LinearPlanes` codes. A few megabytes that stay in cache, instead of a whole frame
/// written out and read back.
final class LinearRowWindow {
    /// Rows `base ..< base + count` of the image, at window rows `0 ..< count`.
    let planes: LinearPlanes
    /// Image row of window row 0.
    private(set) var base = 0
    /// Rows held.
    private(set) var count = 0
    private let imageHeight: Int

    /// A window of `capacity` rows of a `width` × `imageHeight` frame for values in [minimum, maximum].
    init(width: Int, imageHeight: Int, capacity: Int, minimum: Float, maximum: Float) {
        planes = LinearPlanes(width: width, height: capacity, minimum: minimum, maximum: maximum)
        self.imageHeight = imageHeight
    }

    /// Makes image rows `needed` present: rows already held are kept (those above `needed` are let go when room is
    /// short), the rest come from `fill`, called for consecutive image rows `chunk` at a time, which stores them
    /// with `store`. The capacity must hold `needed` plus one chunk.
    func cover(_ needed: ClosedRange<Int>, chunk: Int, fill: (Range<Int>) -> Void) {
        precondition(needed.count + chunk <= planes.height, "window too small for the rows a band needs")
        if needed.lowerBound < base || needed.lowerBound > base + count {
            // First use, or a band that starts outside what is held: begin again there.
            base = needed.lowerBound
            count = 0
        }
        while base + count <= needed.upperBound {
            let rows = (base + count)..<min(imageHeight, base + count + chunk)
            if rows.upperBound - base > planes.height { slide(to: needed.lowerBound) }
            fill(rows)
            count = rows.upperBound - base
        }
    }

    /// Stores `planes.width` Floats as image row `y` of plane `c` (a row of the chunk being filled).
    func store(_ values: UnsafePointer<Float>, plane c: Int, row y: Int) {
        planes.store(values, plane: c, row: y - base)
    }

    /// Moves the rows from image row `row` on to the top of the window.
    private func slide(to row: Int) {
        let drop = row - base, keep = count - drop
        guard drop > 0 else { return }
        for c in 0..<3 where keep > 0 {
            // Overlapping regions: copyMemory moves them as memmove does.
            UnsafeMutableRawPointer(planes.row(c, 0)).copyMemory(from: planes.row(c, drop),
                                                                 byteCount: keep * planes.width * MemoryLayout<UInt16>.stride)
        }
        base = row
        count = max(keep, 0)
    }
}
