import Foundation

/// A lens's radial distortion, lateral chromatic aberration and vignetting, stated the way DNG's opcodes state
/// them (DNG 1.3 §6: `WarpRectilinear` and `FixVignetteRadial`), for an image of `size` pixels.
///
/// Positions are continuous pixel coordinates from the image's top-left corner (a pixel's centre is at + 0.5).
/// The radius `r` is the distance from `center` over the largest distance from `center` to a corner.
/// - Warp: the corrected image's point at radius `r` (plane `p`) is found in the recorded image at radius
///   `r · (kr0 + kr1 r² + kr2 r⁴ + kr3 r⁶)` along the same ray from the centre; one set of coefficients per
///   colour plane (R, G, B), so lateral chromatic aberration is the planes' difference.
/// - Vignetting: the recorded image is brightened by `1 + k0 r² + k1 r⁴ + k2 r⁶ + k3 r⁸ + k4 r¹⁰`.
public struct LensCorrection: Sendable, Hashable, Codable {
    /// Image the parameters refer to.
    public var size: Size
    /// Optical centre, pixels from the top-left corner.
    public var center: SIMD2<Double>
    /// `WarpRectilinear` radial coefficients kr0…kr3 per plane (R, G, B), or one set for every plane.
    public var radial: [SIMD4<Double>]
    /// `FixVignetteRadial` k0…k4; empty when the image needs no brightening.
    public var vignetting: [Double]

    public init(size: Size, center: SIMD2<Double>? = nil, radial: [SIMD4<Double>], vignetting: [Double] = []) {
        self.size = size
        self.center = center ?? SIMD2(Double(size.width) / 2, Double(size.height) / 2)
        self.radial = radial.isEmpty ? [SIMD4(1, 0, 0, 0)] : radial
        self.vignetting = vignetting
    }

    /// Largest distance from the centre to a corner, pixels: the radius normalisation.
    public var normalisingRadius: Double {
        let w = Double(size.width), h = Double(size.height)
        let dx = max(center.x, w - center.x), dy = max(center.y, h - center.y)
        return max(1e-9, (dx * dx + dy * dy).squareRoot())
    }

    /// Whether the image needs resampling (some plane's coefficients differ from the identity).
    public var hasWarp: Bool { radial.contains { $0 != SIMD4(1, 0, 0, 0) } }
    /// Whether the image needs brightening.
    public var hasVignetting: Bool { vignetting.contains { $0 != 0 } }

    /// The coefficients of colour plane `plane` (0 R, 1 G, 2 B).
    public func coefficients(plane: Int) -> SIMD4<Double> { radial[radial.count == 3 ? min(max(plane, 0), 2) : 0] }

    /// The radial factor at normalised radius `r` for coefficients `k`.
    @inline(__always)
    public static func factor(_ k: SIMD4<Double>, _ r: Double) -> Double {
        let r2 = r * r
        return k[0] + r2 * (k[1] + r2 * (k[2] + r2 * k[3]))
    }

    /// The normalised radius whose recorded radius is `recorded` (Newton's method on r·f(r) = recorded; the
    /// coefficients of real lenses make r·f(r) increasing over the image).
    public static func correctedRadius(ofRecorded recorded: Double, _ k: SIMD4<Double>) -> Double {
        guard recorded > 0 else { return 0 }
        var r = recorded / max(1e-6, k[0])
        for _ in 0..<8 {
            let r2 = r * r
            let value = r * (k[0] + r2 * (k[1] + r2 * (k[2] + r2 * k[3]))) - recorded
            let slope = k[0] + r2 * (3 * k[1] + r2 * (5 * k[2] + r2 * 7 * k[3]))
            guard slope > 1e-6 else { break }
            let step = value / slope
            r -= step
            if abs(step) < 1e-12 { break }
        }
        return max(0, r)
    }

    /// Where the corrected image's point `p` lies in the recorded image, plane `plane`.
    @inline(__always)
    public func recordedPoint(ofCorrected p: SIMD2<Double>, plane: Int) -> SIMD2<Double> {
        let m = normalisingRadius, d = p - center
        let r = (d * d).sum().squareRoot() / m
        return center + d * Self.factor(coefficients(plane: plane), r)
    }

    /// Where the recorded image's point `p` (plane `plane`) lies in the corrected image.
    public func correctedPoint(ofRecorded p: SIMD2<Double>, plane: Int) -> SIMD2<Double> {
        let m = normalisingRadius, d = p - center
        let recorded = (d * d).sum().squareRoot() / m
        guard recorded > 0 else { return p }
        return center + d * (Self.correctedRadius(ofRecorded: recorded, coefficients(plane: plane)) / recorded)
    }

    /// The vignetting gain at point `p` of the recorded image.
    @inline(__always)
    public func gain(at p: SIMD2<Double>) -> Double {
        guard !vignetting.isEmpty else { return 1 }
        let d = (p - center) / normalisingRadius
        let r2 = (d * d).sum()
        var g = 0.0, power = r2
        for k in vignetting.prefix(5) {
            g += k * power
            power *= r2
        }
        return 1 + g
    }

    /// The same lens for the part of the image `rect` (x, y, width, height) cut out of it.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> LensCorrection {
        var copy = self
        copy.size = Size(width: width, height: height)
        copy.center = center - SIMD2(Double(x), Double(y))
        let s = copy.normalisingRadius / normalisingRadius
        copy.radial = radial.map { Self.rescaled($0, by: s) }
        copy.vignetting = Self.rescaled(vignetting, by: s)
        return copy
    }

    /// The same lens for the image resampled to `newSize` (both axes by the same factor, the centre with them).
    public func scaled(to newSize: Size) -> LensCorrection {
        var copy = self
        let sx = Double(newSize.width) / Double(max(1, size.width)), sy = Double(newSize.height) / Double(max(1, size.height))
        copy.size = newSize
        copy.center = center * SIMD2(sx, sy)
        // Normalised radii keep their meaning when the image scales uniformly; only the centre moves.
        return copy
    }

    /// Coefficients for a radius unit `s` times smaller than the old one (r_old = s · r_new).
    public static func rescaled(_ k: SIMD4<Double>, by s: Double) -> SIMD4<Double> {
        let s2 = s * s
        return SIMD4(k[0], k[1] * s2, k[2] * s2 * s2, k[3] * s2 * s2 * s2)
    }

    public static func rescaled(_ k: [Double], by s: Double) -> [Double] {
        var power = s * s
        return k.map { value in
            defer { power *= s * s }
            return value * power
        }
    }

    /// Apple's radial look-up tables (`AVCameraCalibrationData.lensDistortionLookupTable` and its inverse) for the
    /// green plane: entry i is at radius i / (count − 1) of the farthest corner; an undistorted point moves
    /// radially by (1 + table value) to where the lens puts it, and the inverse table takes it back.
    public func lookupTables(count: Int = 42) -> (forward: [Float], inverse: [Float]) {
        let k = coefficients(plane: 1)
        let n = max(2, count)
        let forward = (0..<n).map { i -> Float in
            let r = Double(i) / Double(n - 1)
            return Float(Self.factor(k, r) - 1)
        }
        let inverse = (0..<n).map { i -> Float in
            let recorded = Double(i) / Double(n - 1)
            guard recorded > 0 else { return Float(1 / max(1e-6, k[0]) - 1) }
            return Float(Self.correctedRadius(ofRecorded: recorded, k) / recorded - 1)
        }
        return (forward, inverse)
    }
}
