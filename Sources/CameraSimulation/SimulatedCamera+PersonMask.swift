import CaptureCore

extension SimulatedCamera {
    /// Ground truth for portrait mattes: per-pixel coverage 0…1 of person surfaces at `size` (the front scene's
    /// person for the front camera, the person behind the easel for the back cameras), with the radiance view's
    /// sample pattern (centre ray ½, four shared corner rays ⅛ each), so silhouette pixels carry partial coverage.
    /// Cached per size. Truth only: nothing that estimates a matte may read it.
    public func personMask(size: Size) -> Raster<Float> {
        personMaskCache.value(for: size) { renderPersonMask(ViewGeometry(module: module, size: size)) }
    }

    func renderPersonMask(_ g: ViewGeometry) -> Raster<Float> {
        let w = g.width, r = renderer
        var coverage = [Float](repeating: 0, count: w * g.height)
        coverage.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            Parallel.forEachBand(height: g.height, bandHeight: 24) { rows in
                let cornerRows = rows.count + 1
                var corners = [Float](repeating: 0, count: (w + 1) * cornerRows)
                for j in 0..<cornerRows {
                    let y = Double(rows.lowerBound + j)
                    for x in 0...w where r.hitsPerson(origin: g.origin, direction: g.direction(x: Double(x), y: y)) {
                        corners[j * (w + 1) + x] = 1
                    }
                }
                for y in rows {
                    let j = y - rows.lowerBound
                    for x in 0..<w {
                        let centre: Float = r.hitsPerson(origin: g.origin, direction: g.direction(x: Double(x) + 0.5, y: Double(y) + 0.5)) ? 1 : 0
                        let a = j * (w + 1) + x, b = a + w + 1
                        out[y * w + x] = centre * 0.5 + (corners[a] + corners[a + 1] + corners[b] + corners[b + 1]) * 0.125
                    }
                }
            }
        }
        return Raster(width: w, height: g.height, channels: 1, storage: coverage)
    }
}
