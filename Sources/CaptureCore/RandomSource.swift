import Foundation

/// A small, fast, seedable generator (xoshiro256**), seeded through SplitMix64.
/// Every random draw in OpenCapture comes from one of these, so results are reproducible.
public struct RandomSource: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    public init(seed: UInt64) {
        var z = seed
        func splitMix() -> UInt64 {
            z &+= 0x9E37_79B9_7F4A_7C15
            var x = z
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            return x ^ (x >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    /// A generator for an independent stream, e.g. one per band or per frame.
    public init(seed: UInt64, stream: UInt64) {
        self.init(seed: RandomSource.mix(seed, stream))
    }

    /// Combines two values into a well-mixed seed.
    public static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var x = a ^ (b &* 0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03
        x = (x ^ (x >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        x = (x ^ (x >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return x ^ (x >> 33)
    }

    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// Uniform in [0, 1).
    @inline(__always)
    public mutating func nextUniform() -> Float {
        Float(next() >> 40) * (1.0 / 16_777_216.0)
    }

    /// Uniform in [0, 1) with double precision.
    @inline(__always)
    public mutating func nextUniformDouble() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A standard normal deviate (Box–Muller, exact; use `GaussianTable` in hot loops).
    public mutating func nextGaussian() -> Double {
        let u1 = max(nextUniformDouble(), 1e-300)
        let u2 = nextUniformDouble()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A Poisson deviate with mean `lambda`: exact (inversion) below 30, normal approximation above.
    public mutating func nextPoisson(_ lambda: Double) -> Double {
        guard lambda > 0 else { return 0 }
        if lambda < 30 {
            let l = exp(-lambda)
            var k = 0.0, p = 1.0
            repeat { k += 1; p *= nextUniformDouble() } while p > l
            return k - 1
        }
        return max(0, (lambda + lambda.squareRoot() * nextGaussian()).rounded())
    }
}

/// 65 536 precomputed standard-normal quantiles, indexed by 16 random bits: a fast, deterministic
/// Gaussian source for per-pixel noise (four deviates per 64-bit draw).
public enum GaussianTable {
    public static let values: [Float] = {
        let n = 65_536
        return (0..<n).map { i in Float(inverseNormalCDF((Double(i) + 0.5) / Double(n))) }
    }()

    /// Acklam's rational approximation of the inverse standard normal CDF (|error| < 1.2e-9).
    public static func inverseNormalCDF(_ p: Double) -> Double {
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                 -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low {
            let q = (-2 * log(1 - p)).squareRoot()
            return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}
