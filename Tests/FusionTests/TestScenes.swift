import CaptureCore
import Foundation

/// Deterministic synthetic scenes (scene-linear radiance) and their 8-bit renditions.
enum TestScenes {
    /// Multi-scale value noise in [0, 1] (smoothly interpolated random lattices at spacings 32, 12 and 5),
    /// optionally with hard-edged squares on top (like the edges of real objects).
    static func texture(width: Int, height: Int, seed: UInt64, squares: Int = 0) -> [Double] {
        var result = [Double](repeating: 0, count: width * height)
        for (octave, (spacing, amplitude)) in [(32, 0.5), (12, 0.3), (5, 0.2)].enumerated() {
            var random = RandomSource(seed: seed, stream: UInt64(octave))
            let gw = width / spacing + 2, gh = height / spacing + 2
            let lattice = (0..<(gw * gh)).map { _ in random.nextUniformDouble() }
            for y in 0..<height {
                let fy = Double(y) / Double(spacing), iy = Int(fy), ty = smooth(fy - Double(iy))
                for x in 0..<width {
                    let fx = Double(x) / Double(spacing), ix = Int(fx), tx = smooth(fx - Double(ix))
                    let a = lattice[iy * gw + ix], b = lattice[iy * gw + ix + 1]
                    let c = lattice[(iy + 1) * gw + ix], d = lattice[(iy + 1) * gw + ix + 1]
                    let v = (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
                    result[y * width + x] += amplitude * v
                }
            }
        }
        var random = RandomSource(seed: seed, stream: 99)
        for _ in 0..<squares {
            let side = 6 + Int(random.nextUniform() * 24), x0 = Int(random.nextUniform() * Float(width - side))
            let y0 = Int(random.nextUniform() * Float(height - side)), delta = random.nextUniform() < 0.5 ? -0.35 : 0.35
            for y in y0..<(y0 + side) { for x in x0..<(x0 + side) { result[y * width + x] = min(1, max(0, result[y * width + x] + delta)) } }
        }
        return result
    }

    static func smooth(_ t: Double) -> Double { t * t * (3 - 2 * t) }

    /// Linear RGB radiance (3 channels) from a grey texture, tinted per channel.
    static func radiance(_ texture: [Double], width: Int, height: Int, base: (Int, Int) -> Double) -> Raster<Float> {
        var r = Raster<Float>(width: width, height: height, channels: 3)
        let tint: [Double] = [1.0, 0.85, 0.7]
        for y in 0..<height {
            for x in 0..<width {
                let v = base(x, y) * (0.3 + 1.4 * texture[y * width + x])
                for c in 0..<3 { r[x, y, c] = Float(v * tint[c]) }
            }
        }
        return r
    }

    /// An 8-bit sRGB rendition of `radiance × exposure`, clipped at 1.
    static func capture(_ radiance: Raster<Float>, exposure: Double) -> Raster<UInt8> {
        Raster(width: radiance.width, height: radiance.height, channels: radiance.channels,
               storage: radiance.storage.map { encode8(Double($0) * exposure) })
    }

    static func encode8(_ linear: Double) -> UInt8 {
        UInt8((SRGBTransfer.encode(Float(linear)) * 255).rounded())
    }

    /// An 8-bit image brightened or darkened by `gain` in linear light, clipped.
    static func scaled(_ image: Raster<UInt8>, gain: Double) -> Raster<UInt8> {
        let table = (0..<256).map { encode8(Double(SRGBTransfer.decodeTable8[$0]) * gain) }
        return Raster(width: image.width, height: image.height, channels: image.channels,
                      storage: image.storage.map { table[Int($0)] })
    }

    /// Crop of an 8-bit image.
    static func crop(_ image: Raster<UInt8>, x x0: Int, y y0: Int, width: Int, height: Int) -> Raster<UInt8> {
        var out = Raster<UInt8>(width: width, height: height, channels: image.channels)
        for y in 0..<height { for x in 0..<width { for c in 0..<image.channels { out[x, y, c] = image[x0 + x, y0 + y, c] } } }
        return out
    }

    /// Standard deviation of channel 1 (green) over a rectangle: a simple local-contrast measure.
    static func contrast(_ image: Raster<UInt8>, _ xs: Range<Int>, _ ys: Range<Int>) -> Double {
        var sum = 0.0, sum2 = 0.0, n = 0.0
        for y in ys { for x in xs { let v = Double(image[x, y, 1]); sum += v; sum2 += v * v; n += 1 } }
        let mean = sum / n
        return (sum2 / n - mean * mean).squareRoot()
    }

    /// Mean absolute 4-neighbour Laplacian of green over a rectangle (fine detail).
    static func detail(_ image: Raster<UInt8>, _ xs: Range<Int>, _ ys: Range<Int>) -> Double {
        var total = 0.0, n = 0.0
        for y in ys { for x in xs {
            let c = 4 * Double(image[x, y, 1])
            let s = Double(image[x - 1, y, 1]) + Double(image[x + 1, y, 1]) + Double(image[x, y - 1, 1]) + Double(image[x, y + 1, 1])
            total += abs(s - c); n += 1
        } }
        return total / n
    }
}
