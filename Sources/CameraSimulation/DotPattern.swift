import CaptureCore
import Foundation

/// The dot projector's pattern: ≈30 000 pseudo-random Gaussian dots (a VCSEL array behind a
/// diffractive element) rendered once into a fine angular raster, sampled bilinearly.
///
/// The raster is a pinhole image of the projector: pixel (u, v) lights the ray
/// forward + right·(u − width/2)/focal − up·(v − height/2)/focal, pixel centres at +0.5.
struct DotPattern: Sendable {
    let width: Int
    let height: Int
    /// Focal length of the pattern raster, pattern pixels.
    let focal: Double
    /// Relative radiant intensity per pattern pixel (dot peak ≈ 0.7…1).
    let intensity: [Float]

    /// `count` dots spread uniformly over a field of ±`halfField` (tangent of the half angles), each a
    /// Gaussian of `sigma` pattern pixels with a peak between 0.7 and 1; deterministic for `seed`.
    init(count: Int, halfField: SIMD2<Double>, focal: Double, sigma: Double, seed: UInt64) {
        width = max(1, Int((2 * halfField.x * focal).rounded(.up)))
        height = max(1, Int((2 * halfField.y * focal).rounded(.up)))
        self.focal = focal
        var raster = [Float](repeating: 0, count: width * height)
        var random = RandomSource(seed: seed)
        let reach = Int((3 * sigma).rounded(.up))
        let inverse = 1 / (2 * sigma * sigma)
        for _ in 0..<count {
            let cx = random.nextUniformDouble() * Double(width), cy = random.nextUniformDouble() * Double(height)
            let peak = 0.7 + 0.3 * random.nextUniformDouble()
            let x0 = Int(cx.rounded(.down)), y0 = Int(cy.rounded(.down))
            for y in max(0, y0 - reach)...min(height - 1, y0 + reach) {
                let dy = Double(y) + 0.5 - cy
                for x in max(0, x0 - reach)...min(width - 1, x0 + reach) {
                    let dx = Double(x) + 0.5 - cx
                    raster[y * width + x] += Float(peak * exp(-(dx * dx + dy * dy) * inverse))
                }
            }
        }
        intensity = raster
    }

    /// Pattern intensity along the projector-frame direction (right, down, forward components `t`,
    /// forward > 0); zero outside the field.
    @inline(__always)
    func sample(right: Double, down: Double, forward: Double) -> Float {
        guard forward > 1e-9 else { return 0 }
        let u = Double(width) / 2 + focal * right / forward - 0.5
        let v = Double(height) / 2 + focal * down / forward - 0.5
        guard u >= 0, v >= 0, u < Double(width - 1), v < Double(height - 1) else { return 0 }
        let x = Int(u), y = Int(v)
        let fx = Float(u - Double(x)), fy = Float(v - Double(y))
        let i = y * width + x
        return intensity.withUnsafeBufferPointer { p in
            let top = p[i] + (p[i + 1] - p[i]) * fx
            let bottom = p[i + width] + (p[i + width + 1] - p[i + width]) * fx
            return top + (bottom - top) * fy
        }
    }
}
