import CaptureCore

extension RawImage {
    /// Linear luminance at half resolution, one value per 2×2 CFA quad: black subtracted, scaled so
    /// the white level is 1, white-balanced by the as-shot neutral, then ¼ R + ½ G + ¼ B. What
    /// depth estimation and focus measures work on (no demosaic, no tone curve; clipped quads stay at 1).
    public func halfResolutionLuma() -> Raster<Float> {
        let w = width / 2, h = height / 2
        guard w > 0, h > 0 else { return Raster(width: 0, height: 0, channels: 1, storage: []) }
        let colours = cfa.colors
        let neutral = asShotNeutral
        var weight = [Float](repeating: 0, count: 4), black = [Float](repeating: 0, count: 4)
        let greens = Float(colours.filter { $0 == 1 }.count)
        for i in 0..<4 {
            let colour = colours[i]
            let share: Float = colour == 1 ? 0.5 / max(greens, 1) : 0.25
            let range = Float(whiteLevel) - blackLevel[i]
            weight[i] = share / (Float(neutral[colour]) * max(range, 1))
            black[i] = blackLevel[i]
        }
        var out = [Float](repeating: 0, count: w * h)
        let sourceWidth = bayer.width
        bayer.storage.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let src = src.baseAddress!, dst = dst.baseAddress!
                let w0 = weight[0], w1 = weight[1], w2 = weight[2], w3 = weight[3]
                let b0 = black[0], b1 = black[1], b2 = black[2], b3 = black[3]
                Parallel.forEachBand(height: h, bandHeight: 32) { rows in
                    for y in rows {
                        let top = src + 2 * y * sourceWidth, bottom = top + sourceWidth, d = dst + y * w
                        for x in 0..<w {
                            let a = (Float(top[2 * x]) - b0) * w0 + (Float(top[2 * x + 1]) - b1) * w1
                            let b = (Float(bottom[2 * x]) - b2) * w2 + (Float(bottom[2 * x + 1]) - b3) * w3
                            d[x] = max(0, a + b)
                        }
                    }
                }
            }
        }
        return Raster(width: w, height: h, channels: 1, storage: out)
    }
}
