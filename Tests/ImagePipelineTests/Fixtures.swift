import CaptureCore
import Foundation
@testable import ImagePipeline

/// Synthetic scenes and raw frames with known ground truth.
enum Fixtures {
    /// A plausible camera matrix (rows sum to one).
    static let cameraToSRGB = Matrix3([[1.70, -0.55, -0.15], [-0.25, 1.45, -0.20], [0.05, -0.60, 1.55]])
    static let neutral = SIMD3<Double>(0.5, 1, 0.7)

    /// Smooth colourful linear sRGB: sinusoids of different frequency and direction per channel.
    static func colorful(width: Int, height: Int, frequency: Double = 0.25) -> Raster<Float> {
        var img = Raster<Float>(width: width, height: height, channels: 3)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                img[x, y, 0] = Float(0.45 + 0.35 * sin(frequency * fx + 0.3 * frequency * fy))
                img[x, y, 1] = Float(0.45 + 0.35 * sin(0.7 * frequency * fy + 0.5 * frequency * fx + 1))
                img[x, y, 2] = Float(0.45 + 0.35 * sin(0.8 * frequency * (fx + fy) + 2))
            }
        }
        return img
    }

    /// Natural-image-like detail: a luminance zone plate with slowly varying colour, so the channels
    /// correlate the way demosaicing methods assume.
    static func zonePlate(width: Int, height: Int) -> Raster<Float> {
        var img = Raster<Float>(width: width, height: height, channels: 3)
        let cx = Double(width) / 2, cy = Double(height) / 2
        for y in 0..<height {
            for x in 0..<width {
                let r2 = (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)
                let l = 0.45 + 0.3 * cos(r2 * 0.012)
                let tint = SIMD3(0.8 + 0.3 * sin(Double(x) * 0.05), 1.0, 0.8 + 0.3 * cos(Double(y) * 0.04))
                for c in 0..<3 { img[x, y, c] = Float(l * tint[c]) }
            }
        }
        return img
    }

    /// A flat colour everywhere.
    static func flat(width: Int, height: Int, _ rgb: SIMD3<Float>) -> Raster<Float> {
        var img = Raster<Float>(width: width, height: height, channels: 3)
        for i in 0..<(width * height) { for c in 0..<3 { img.storage[3 * i + c] = rgb[c] } }
        return img
    }

    /// Linear sRGB truth → raw frame through the inverse colour matrix and the neutral, with optional
    /// noise of variance `scale · signal + offset` (normalised units), deterministic from `seed`.
    static func raw(from truth: Raster<Float>, cfa: CFAPattern = .rggb, matrix: Matrix3 = cameraToSRGB,
                    neutral: SIMD3<Double> = neutral, noise: (scale: Double, offset: Double) = (0, 0),
                    seed: UInt64 = 1, iso: Double = 100) -> RawImage {
        let black = 512.0, white = 16383.0, range = white - black
        let inverse = matrix.inverse!
        var bayer = Raster<UInt16>(width: truth.width, height: truth.height)
        var rng = RandomSource(seed: seed)
        for y in 0..<truth.height {
            for x in 0..<truth.width {
                let rgb = SIMD3<Double>(Double(truth[x, y, 0]), Double(truth[x, y, 1]), Double(truth[x, y, 2]))
                let c = cfa.color(x: x, y: y)
                let signal = (inverse * rgb)[c] * neutral[c]
                var v = signal
                if noise.scale > 0 || noise.offset > 0 {
                    v += (noise.scale * max(signal, 0) + noise.offset).squareRoot() * rng.nextGaussian()
                }
                bayer[x, y] = UInt16(min(max((black + v * range).rounded(), 0), white))
            }
        }
        return RawImage(bayer: bayer, cfa: cfa, bitDepth: 14, blackLevel: [512, 512, 512, 512], whiteLevel: 16383,
                        asShotNeutral: neutral, cameraToSRGB: matrix, noiseProfile: [noise],
                        exposure: ExposureRecord(duration: 0.01, iso: iso))
    }

    /// ISP settings with every optional stage off.
    static func plainSettings() -> ISPSettings {
        var s = ISPSettings()
        s.noiseReduction = 0
        s.sharpening = 0
        return s
    }
}
