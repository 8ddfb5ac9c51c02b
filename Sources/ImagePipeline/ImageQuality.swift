import CaptureCore
import Foundation

/// Full-reference image-quality metrics.
public enum ImageQuality {
    /// Colour PSNR in dB: 10·log10(255² / MSE) with the MSE over all channels of the pixels at least
    /// `border` pixels from every edge. Identical images give +∞.
    public static func cpsnr(_ a: Raster<UInt8>, _ b: Raster<UInt8>, border: Int = 10) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.channels == b.channels, "shape mismatch")
        var sum = 0.0, count = 0
        let c = a.channels
        for y in border..<max(border, a.height - border) {
            var rowSum = 0
            for i in ((y * a.width + border) * c)..<((y * a.width + a.width - border) * c) {
                let d = Int(a.storage[i]) - Int(b.storage[i])
                rowSum += d * d
            }
            sum += Double(rowSum)
            count += max(0, a.width - 2 * border) * c
        }
        guard count > 0 else { return .nan }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(count)))
    }

    /// PSNR in dB of two Float images for a given peak value, excluding `border` pixels at each edge.
    public static func psnr(_ a: Raster<Float>, _ b: Raster<Float>, peak: Float = 1, border: Int = 0) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.channels == b.channels, "shape mismatch")
        var sum = 0.0, count = 0
        let c = a.channels
        for y in border..<max(border, a.height - border) {
            for i in ((y * a.width + border) * c)..<((y * a.width + a.width - border) * c) {
                let d = Double(a.storage[i]) - Double(b.storage[i])
                sum += d * d
                count += 1
            }
        }
        guard count > 0 else { return .nan }
        guard sum > 0 else { return .infinity }
        return 10 * log10(Double(peak) * Double(peak) / (sum / Double(count)))
    }

    /// Mean SSIM (Wang et al. 2004) on BT.601 luma with an 11×11 Gaussian window (σ = 1.5),
    /// K1 = 0.01, K2 = 0.03, L = 255, over the window positions that fit inside the image.
    public static func ssim(_ a: Raster<UInt8>, _ b: Raster<UInt8>) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.channels == b.channels, "shape mismatch")
        let w = a.width, h = a.height
        func luma(_ r: Raster<UInt8>) -> [Double] {
            guard r.channels >= 3 else { return r.storage.map(Double.init) }
            return (0..<(w * h)).map { i in
                let p = i * r.channels
                return 0.299 * Double(r.storage[p]) + 0.587 * Double(r.storage[p + 1]) + 0.114 * Double(r.storage[p + 2])
            }
        }
        let x = luma(a), y = luma(b)
        let radius = min(5, (min(w, h) - 1) / 2)
        guard radius >= 1 else { return x == y ? 1 : 0 }
        let kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let norm = kernel.reduce(0, +)
        let k = kernel.map { $0 / norm }
        // Separable Gaussian of a per-pixel quantity over valid window centres.
        let ow = w - 2 * radius, oh = h - 2 * radius
        func blur(_ f: [Double]) -> [Double] {
            var hz = [Double](repeating: 0, count: ow * h)
            for row in 0..<h {
                for cx in 0..<ow {
                    var s = 0.0
                    for t in 0..<k.count { s += k[t] * f[row * w + cx + t] }
                    hz[row * ow + cx] = s
                }
            }
            var out = [Double](repeating: 0, count: ow * oh)
            for cy in 0..<oh {
                for cx in 0..<ow {
                    var s = 0.0
                    for t in 0..<k.count { s += k[t] * hz[(cy + t) * ow + cx] }
                    out[cy * ow + cx] = s
                }
            }
            return out
        }
        let mx = blur(x), my = blur(y)
        let sxx = blur(x.map { $0 * $0 }), syy = blur(y.map { $0 * $0 }), sxy = blur(zip(x, y).map { $0 * $1 })
        let c1: Double = 2.55 * 2.55, c2: Double = 7.65 * 7.65
        var total = 0.0
        for i in 0..<(ow * oh) {
            let vx = sxx[i] - mx[i] * mx[i], vy = syy[i] - my[i] * my[i], cov = sxy[i] - mx[i] * my[i]
            total += ((2 * mx[i] * my[i] + c1) * (2 * cov + c2)) /
                ((mx[i] * mx[i] + my[i] * my[i] + c1) * (vx + vy + c2))
        }
        return total / Double(ow * oh)
    }
}
