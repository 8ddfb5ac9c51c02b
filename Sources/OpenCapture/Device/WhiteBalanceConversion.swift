import CameraSimulation
import CaptureCore
import Foundation

/// Converts between a camera module's white-balance gains, CIE 1931 xy chromaticity and correlated colour temperature
/// with tint. The simulated sensor sees linear sRGB through `diag(whiteResponse) · sensorMixing`, so the camera's
/// response to an illuminant of chromaticity xy follows from sRGB's primaries; the Planckian locus is Kang et al.'s
/// (2002) cubic approximation, valid 1667–25000 K.
enum WhiteBalanceConversion {
    static let minimumTemperature = 1667.0, maximumTemperature = 25000.0
    /// Tint units per CIE 1960 uv distance (Adobe's scale: ±150 tint ≈ ±0.05 Duv).
    static let tintScale = 3000.0

    private static let xyzToSRGB = Matrix3([[3.2404542, -1.5371385, -0.4985314],
                                            [-0.9692660, 1.8760108, 0.0415560],
                                            [0.0556434, -0.2040259, 1.0572252]])
    private static let sRGBToXYZ = Matrix3([[0.4124564, 0.3575761, 0.1804375],
                                            [0.2126729, 0.7151522, 0.0721750],
                                            [0.0193339, 0.1191920, 0.9503041]])

    /// Gains that make the camera response `neutral` white, scaled so the smallest is 1 (Apple's device gains).
    static func gains(neutral: SIMD3<Double>) -> SIMD3<Double> {
        let n = SIMD3(max(neutral.x, 1e-9), max(neutral.y, 1e-9), max(neutral.z, 1e-9))
        let g = 1 / n
        return g / g.min()
    }

    /// The camera response to white that `gains` make neutral, green = 1 (the ISP's and DNG's AsShotNeutral).
    static func neutral(gains: SIMD3<Double>) -> SIMD3<Double> {
        let g = SIMD3(max(gains.x, 1e-9), max(gains.y, 1e-9), max(gains.z, 1e-9))
        return g.y / g
    }

    static func chromaticity(gains: SIMD3<Double>, module: CameraModule) -> SIMD2<Double> {
        let n = neutral(gains: gains) / module.whiteResponse
        let xyz = sRGBToXYZ * (module.cameraToSRGB * n)
        let sum = xyz.x + xyz.y + xyz.z
        guard sum > 1e-12 else { return SIMD2(0.3127, 0.3290) }
        return SIMD2(xyz.x / sum, xyz.y / sum)
    }

    static func gains(chromaticity xy: SIMD2<Double>, module: CameraModule) -> SIMD3<Double> {
        let y = max(xy.y, 1e-6)
        let xyz = SIMD3(xy.x / y, 1, (1 - xy.x - xy.y) / y)
        let camera = module.whiteResponse * (module.sensorMixing * (xyzToSRGB * xyz))
        return gains(neutral: camera)
    }

    // MARK: Temperature and tint

    /// The Planckian locus at `kelvin`, in CIE 1931 xy.
    static func planckian(_ kelvin: Double) -> SIMD2<Double> {
        let t = min(max(kelvin, minimumTemperature), maximumTemperature)
        let t1 = 1e3 / t, t2 = t1 * t1, t3 = t2 * t1
        let x = t <= 4000 ? -0.2661239 * t3 - 0.2343589 * t2 + 0.8776956 * t1 + 0.179910
                          : -3.0258469 * t3 + 2.1070379 * t2 + 0.2226347 * t1 + 0.240390
        let x2 = x * x, x3 = x2 * x
        let y: Double
        if t <= 2222 { y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683 }
        else if t <= 4000 { y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867 }
        else { y = 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * x - 0.37001483 }
        return SIMD2(x, y)
    }

    static func uv(_ xy: SIMD2<Double>) -> SIMD2<Double> {
        let d = -2 * xy.x + 12 * xy.y + 3
        return SIMD2(4 * xy.x / d, 6 * xy.y / d)
    }

    static func xy(_ uv: SIMD2<Double>) -> SIMD2<Double> {
        let d = 2 * uv.x - 8 * uv.y + 4
        return SIMD2(3 * uv.x / d, 2 * uv.y / d)
    }

    /// The locus point in uv at `mired` and its unit normal pointing toward green (+v).
    private static func locus(mired: Double) -> (point: SIMD2<Double>, normal: SIMD2<Double>) {
        let point = uv(planckian(1e6 / mired))
        let h = 0.05
        let a = uv(planckian(1e6 / (mired - h))), b = uv(planckian(1e6 / (mired + h)))
        let tangent = b - a
        var normal = SIMD2(-tangent.y, tangent.x) / max(1e-15, (tangent * tangent).sum().squareRoot())
        if normal.y < 0 { normal = -normal }
        return (point, normal)
    }

    static func temperatureAndTint(chromaticity xy: SIMD2<Double>) -> (temperature: Double, tint: Double) {
        let target = uv(xy)
        func distance(_ mired: Double) -> Double {
            let d = target - locus(mired: mired).point
            return (d * d).sum()
        }
        let lowest = 1e6 / maximumTemperature, highest = 1e6 / minimumTemperature
        // A coarse scan, then golden-section search around the best step.
        var best = lowest, bestDistance = Double.infinity
        var mired = lowest
        while mired <= highest {
            let d = distance(mired)
            if d < bestDistance { (best, bestDistance) = (mired, d) }
            mired += 2
        }
        var a = max(lowest, best - 2), b = min(highest, best + 2)
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let c = b - ratio * (b - a), d = a + ratio * (b - a)
            if distance(c) < distance(d) { b = d } else { a = c }
        }
        let found = (a + b) / 2
        let (point, normal) = locus(mired: found)
        let duv = ((target - point) * normal).sum()
        return (1e6 / found, -duv * tintScale)
    }

    static func chromaticity(temperature: Double, tint: Double) -> SIMD2<Double> {
        let kelvin = min(max(temperature, minimumTemperature), maximumTemperature)
        let (point, normal) = locus(mired: 1e6 / kelvin)
        return xy(point - (tint / tintScale) * normal)
    }
}
