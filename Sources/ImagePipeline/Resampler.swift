import CaptureCore

/// Image down-scaling.
public enum Resampler {
    /// Area-average down-scale (each output pixel is the mean of the source area it covers,
    /// with fractional edge weights); exact for integer factors. Sizes larger than the source are clamped to it.
    public static func downscale(_ image: Raster<UInt8>, to size: Size) -> Raster<UInt8> {
        downscale(image, to: size, load: { Float($0) }, store: { UInt8(min(max($0.rounded(), 0), 255)) })
    }

    /// The same area-average down-scale on float samples (linear data, depth, luma); NaN propagates
    /// into the output pixels whose area it touches.
    public static func downscale(_ image: Raster<Float>, to size: Size) -> Raster<Float> {
        downscale(image, to: size, load: { $0 }, store: { $0 })
    }

    @inline(__always)
    private static func downscale<Element: BitwiseCopyable & Sendable & Numeric>(
        _ image: Raster<Element>, to size: Size, load: (Element) -> Float, store: (Float) -> Element
    ) -> Raster<Element> {
        let ow = max(1, min(size.width, image.width)), oh = max(1, min(size.height, image.height))
        let c = image.channels, w = image.width, h = image.height
        if ow == w && oh == h { return image }
        let xs = weights(source: w, target: ow), ys = weights(source: h, target: oh)
        // Horizontal pass into Float rows, then vertical accumulation per output row.
        var horizontal = [Float](repeating: 0, count: h * ow * c)
        image.storage.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { hz in
                let src = src.baseAddress!, hz = hz.baseAddress!
                Parallel.forEachBand(height: h) { rows in
                    for y in rows {
                        let s = src + y * w * c, d = hz + y * ow * c
                        for (ox, taps) in xs.enumerated() {
                            for ch in 0..<c {
                                var sum: Float = 0
                                for (x, wt) in taps { sum += load(s[x * c + ch]) * wt }
                                d[ox * c + ch] = sum
                            }
                        }
                    }
                }
            }
        }
        var out = Raster<Element>(width: ow, height: oh, channels: c)
        horizontal.withUnsafeBufferPointer { hz in
            out.storage.withUnsafeMutableBufferPointer { dst in
                let hz = hz.baseAddress!, dst = dst.baseAddress!
                Parallel.forEachBand(height: oh, bandHeight: 16) { rows in
                    for oy in rows {
                        let d = dst + oy * ow * c
                        for i in 0..<(ow * c) {
                            var sum: Float = 0
                            for (y, wt) in ys[oy] { sum += hz[y * ow * c + i] * wt }
                            d[i] = store(sum)
                        }
                    }
                }
            }
        }
        return out
    }

    /// For each target index, the source indices it covers and their normalised weights.
    static func weights(source: Int, target: Int) -> [[(Int, Float)]] {
        let ratio = Double(source) / Double(target)
        return (0..<target).map { t in
            let start = Double(t) * ratio, end = Double(t + 1) * ratio
            var taps: [(Int, Float)] = []
            var i = Int(start)
            while Double(i) < end && i < source {
                let cover = min(end, Double(i + 1)) - max(start, Double(i))
                if cover > 1e-9 { taps.append((i, Float(cover / ratio))) }
                i += 1
            }
            return taps
        }
    }
}
