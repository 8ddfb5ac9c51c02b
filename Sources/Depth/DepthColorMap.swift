import CaptureCore

/// False-colour pictures of depth maps with the perceptual "turbo" map (Mikhailov 2019): near is
/// warm (red), far is cool (blue), NaN and ±∞ are black. The range is the 1st…99th percentile of the
/// finite values, so a few outliers do not wash the picture out.
public enum DepthColorMap {
    /// RGB, 8 bits, the map's size.
    public static func colorized(_ map: DepthMap) -> Raster<UInt8> {
        let values = map.values
        let finite = values.storage.filter(\.isFinite)
        var out = Raster<UInt8>(width: values.width, height: values.height, channels: 3)
        guard !finite.isEmpty else { return out }
        let sample = stride(from: 0, to: finite.count, by: max(1, finite.count / 65536)).map { finite[$0] }.sorted()
        let low = sample[sample.count / 100], high = sample[(sample.count - 1) * 99 / 100]
        let span = high > low ? high - low : 1
        // Disparity grows towards the camera, depth away from it.
        let nearIsHigh = map.kind == .disparity
        for p in 0..<values.width * values.height {
            let v = values.storage[p * values.channels]
            guard v.isFinite else { continue }
            var t = min(1, max(0, (v - low) / span))
            if !nearIsHigh { t = 1 - t }
            let rgb = turbo(t)
            out.storage[3 * p] = rgb.0
            out.storage[3 * p + 1] = rgb.1
            out.storage[3 * p + 2] = rgb.2
        }
        return out
    }

    /// Turbo at t in 0…1 (0 dark blue … 1 dark red), from its published polynomial approximation.
    public static func turbo(_ t: Float) -> (UInt8, UInt8, UInt8) {
        let x = min(1, max(0, t))
        let x2 = x * x, x3 = x2 * x, x4 = x2 * x2, x5 = x4 * x
        let r = 0.13572138 + 4.61539260 * x - 42.66032258 * x2 + 132.13108234 * x3 - 152.94239396 * x4 + 59.28637943 * x5
        let g = 0.09140261 + 2.19418839 * x + 4.84296658 * x2 - 14.18503333 * x3 + 4.27729857 * x4 + 2.82956604 * x5
        let b = 0.10667330 + 12.64194608 * x - 60.58204836 * x2 + 110.36276771 * x3 - 89.90310912 * x4 + 27.34824973 * x5
        func byte(_ v: Float) -> UInt8 { UInt8(min(255, max(0, (v * 255).rounded()))) }
        return (byte(r), byte(g), byte(b))
    }
}
