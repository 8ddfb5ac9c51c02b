import CaptureCore
import Foundation

/// Depth from a structured-light (TrueDepth-class) infrared frame: block matching of the observed dot
/// pattern against the reference recording along image rows.
///
/// Both images are locally contrast-normalised; each pixel's window is matched by zero-mean normalised
/// cross-correlation (ZNCC, running sums) at every integer disparity d (observed x − reference x) the
/// calibration's working range allows; the best peak is refined by a parabola, and depth follows from
/// d = f·B·(1/Z − 1/Z₀), i.e. Z = f·B / (f·B/Z₀ + d). A pixel gets NaN when the pattern is not found:
/// a weak peak, too little dot contrast (dark or distant surfaces, projector shadows), or a peak at the
/// edge of the searched range (the surface is outside the working range).
public enum StructuredLightDecoder {
    /// Tuning of the matcher.
    public struct Parameters: Sendable, Hashable {
        /// Matching window half-size: the window is (2r + 1)² pixels.
        public var windowRadius: Int
        /// Local contrast normalisation half-size.
        public var normalizationRadius: Int
        /// Lowest ZNCC peak accepted (−1…1).
        public var minimumCorrelation: Float
        /// Lowest local standard deviation of the raw infrared image (fraction of full scale) over the
        /// normalisation window: below it the dots are lost in the noise.
        public var minimumContrast: Float

        public init(windowRadius: Int = 5, normalizationRadius: Int = 7, minimumCorrelation: Float = 0.5,
                    minimumContrast: Float = 0.004) {
            self.windowRadius = windowRadius
            self.normalizationRadius = normalizationRadius
            self.minimumCorrelation = minimumCorrelation
            self.minimumContrast = minimumContrast
        }
    }

    /// Depth in metres in the infrared camera's view; NaN where the pattern was not found.
    public static func decode(infrared: Raster<Float>, reference: Raster<Float>,
                              calibration: StructuredLightCalibration) throws -> Raster<Float> {
        try decode(infrared: infrared, reference: reference, calibration: calibration, parameters: Parameters())
    }

    /// Depth in metres in the infrared camera's view with explicit matcher `parameters`.
    public static func decode(infrared: Raster<Float>, reference: Raster<Float>, calibration: StructuredLightCalibration,
                              parameters: Parameters) throws -> Raster<Float> {
        let disparity = try self.disparity(infrared: infrared, reference: reference, calibration: calibration,
                                           parameters: parameters)
        let ir = calibration.infrared.scaled(to: infrared.size)
        let fb = Float(ir.focalLength.x * calibration.baseline)
        let offset = fb / Float(calibration.referenceDistance)
        let near = Float(calibration.workingRange.lowerBound), far = Float(calibration.workingRange.upperBound)
        var depth = disparity
        for i in depth.storage.indices {
            let d = disparity.storage[i]
            guard d.isFinite else { continue }
            let z = fb / (offset + d)
            // Inside the working range with the half-pixel of slack the sub-pixel fit may add.
            depth.storage[i] = z > 0 && z >= near * 0.9 && z <= far * 1.1 ? z : .nan
        }
        return depth
    }

    /// Disparity (observed x − reference x, pixels, sub-pixel) for every infrared pixel; NaN where the
    /// pattern was not found.
    public static func disparity(infrared: Raster<Float>, reference: Raster<Float>, calibration: StructuredLightCalibration,
                                 parameters: Parameters = Parameters()) throws -> Raster<Float> {
        guard infrared.channels == 1, reference.channels == 1 else {
            throw DepthError.mismatchedInputs("infrared and reference images must have one channel")
        }
        guard infrared.size == reference.size else {
            throw DepthError.mismatchedInputs("infrared \(infrared.size) and reference \(reference.size) differ in size")
        }
        let r = parameters.windowRadius, nr = parameters.normalizationRadius
        let w = infrared.width, h = infrared.height
        guard r >= 1, r <= 32, nr >= 1, nr <= 64 else {
            throw DepthError.invalidParameter("window radius \(r) and normalisation radius \(nr) must be 1…32 and 1…64")
        }
        guard w > 2 * r + 2, h > 2 * r + 2 else {
            throw DepthError.mismatchedInputs("image \(infrared.size) is smaller than the matching window")
        }
        let ir = calibration.infrared
        guard ir.referenceDimensions.width > 0, ir.focalLength.x.isFinite, ir.focalLength.x > 0 else {
            throw DepthError.invalidParameter("infrared focal length \(ir.focalLength.x) px")
        }
        let range = calibration.workingRange
        guard calibration.baseline.isFinite, calibration.baseline != 0,
              calibration.referenceDistance.isFinite, calibration.referenceDistance > 0,
              range.lowerBound.isFinite, range.upperBound.isFinite, range.lowerBound > 0 else {
            throw DepthError.invalidParameter("baseline \(calibration.baseline) m, reference distance "
                                              + "\(calibration.referenceDistance) m, working range \(range)")
        }
        var scaled = calibration
        scaled.infrared = ir.scaled(to: infrared.size)
        let a = scaled.disparity(depth: range.lowerBound), b = scaled.disparity(depth: range.upperBound)
        let low = Int(min(a, b).rounded(.down)) - 1, high = Int(max(a, b).rounded(.up)) + 1
        guard high - low < w else {
            throw DepthError.invalidParameter("working range \(range) m needs \(high - low) disparities on a \(w)-pixel row")
        }

        let (normalized, contrast) = normalize(infrared, radius: nr)
        let (normalizedReference, _) = normalize(reference, radius: nr)
        let windowIR = WindowStatistics(normalized, width: w, height: h, radius: r)
        let windowReference = WindowStatistics(normalizedReference, width: w, height: h, radius: r)
        var out = [Float](repeating: .nan, count: w * h)
        let count = Float((2 * r + 1) * (2 * r + 1))
        let minimumCorrelation = parameters.minimumCorrelation, minimumContrast = parameters.minimumContrast

        normalized.withUnsafeBufferPointer { aBuffer in
            normalizedReference.withUnsafeBufferPointer { bBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    let a = aBuffer.baseAddress!, b = bBuffer.baseAddress!, o = outBuffer.baseAddress!
                    let contrastP = contrast
                    Parallel.forEachBand(height: h - 2 * r, bandHeight: 24) { bandRows in
                        let y0 = bandRows.lowerBound + r, y1 = bandRows.upperBound + r
                        let rows = y1 - y0
                        var best = [Float](repeating: -2, count: rows * w)
                        var bestD = [Int32](repeating: Int32.min, count: rows * w)
                        var left = [Float](repeating: -2, count: rows * w)
                        var right = [Float](repeating: -2, count: rows * w)
                        var previous = [Float](repeating: -2, count: rows * w)
                        var current = [Float](repeating: -2, count: rows * w)
                        var column = [Float](repeating: 0, count: w)
                        for d in low...high {
                            // x − d must keep the reference window inside the image.
                            let xStart = max(r, r + d), xEnd = min(w - r, w - r + d)
                            guard xStart < xEnd else { continue }
                            let cStart = xStart - r, cEnd = xEnd + r
                            column.withUnsafeMutableBufferPointer { cb in
                                let c = cb.baseAddress!
                                for x in cStart..<cEnd { c[x] = 0 }
                                for yy in (y0 - r)...(y0 + r) {
                                    let ar = a + yy * w, br = b + yy * w - d
                                    for x in cStart..<cEnd { c[x] += ar[x] * br[x] }
                                }
                                for y in y0..<y1 {
                                    if y > y0 {
                                        let ad = a + (y + r) * w, bd = b + (y + r) * w - d
                                        let au = a + (y - r - 1) * w, bu = b + (y - r - 1) * w - d
                                        for x in cStart..<cEnd { c[x] += ad[x] * bd[x] - au[x] * bu[x] }
                                    }
                                    var sum: Float = 0
                                    for x in cStart..<(cStart + 2 * r) { sum += c[x] }
                                    let row = (y - y0) * w
                                    for x in xStart..<xEnd {
                                        sum += c[x + r]
                                        let ia = y * w + x, ib = ia - d
                                        let covariance = sum - windowIR.sum[ia] * windowReference.sum[ib] / count
                                        let denominator = windowIR.variance[ia] * windowReference.variance[ib]
                                        let score: Float = denominator > 1e-6 ? covariance / denominator.squareRoot() : -1
                                        sum -= c[x - r]
                                        let k = row + x
                                        current[k] = score
                                        if bestD[k] == Int32(d - 1) { right[k] = score }
                                        if score > best[k] {
                                            best[k] = score
                                            bestD[k] = Int32(d)
                                            left[k] = previous[k]
                                            right[k] = -2
                                        }
                                    }
                                }
                            }
                            swap(&previous, &current)
                            // Scores of pixels this disparity did not reach must not leak into the next one.
                            for k in current.indices { current[k] = -2 }
                        }
                        for y in y0..<y1 {
                            for x in r..<(w - r) {
                                let k = (y - y0) * w + x, i = y * w + x
                                let dBest = Int(bestD[k])
                                guard dBest > low, dBest < high, best[k] >= minimumCorrelation,
                                      contrastP[i] >= minimumContrast, left[k] > -2, right[k] > -2 else { continue }
                                let curvature = left[k] - 2 * best[k] + right[k]
                                var shift: Float = 0
                                if curvature < 0 { shift = max(-0.5, min(0.5, 0.5 * (left[k] - right[k]) / curvature)) }
                                o[i] = Float(dBest) + shift
                            }
                        }
                    }
                }
            }
        }
        return Raster(width: w, height: h, channels: 1, storage: out)
    }

    /// Local contrast normalisation (x − mean) / (σ + ε) over a (2r + 1)² box, and the local σ itself.
    static func normalize(_ image: Raster<Float>, radius: Int) -> (normalized: [Float], sigma: [Float]) {
        let w = image.width, h = image.height
        let integral = IntegralImages(image.storage, width: w, height: h)
        var normalized = [Float](repeating: 0, count: w * h), sigma = [Float](repeating: 0, count: w * h)
        let epsilon = 1e-3
        for y in 0..<h {
            let ya = max(0, y - radius), yb = min(h, y + radius + 1)
            for x in 0..<w {
                let xa = max(0, x - radius), xb = min(w, x + radius + 1)
                let n = Double((yb - ya) * (xb - xa))
                let (s, s2) = integral.sums(xa, ya, xb, yb)
                let mean = s / n
                let sd = max(0, s2 / n - mean * mean).squareRoot()
                let i = y * w + x
                sigma[i] = Float(sd)
                normalized[i] = Float((Double(image.storage[i]) - mean) / (sd + epsilon))
            }
        }
        return (normalized, sigma)
    }
}

/// Summed-area tables of values and squares (double precision), for box sums in O(1).
struct IntegralImages {
    let width: Int
    let sum: [Double]
    let squares: [Double]

    init(_ values: [Float], width: Int, height: Int) {
        self.width = width
        var s = [Double](repeating: 0, count: (width + 1) * (height + 1)), q = s
        for y in 0..<height {
            var rowSum = 0.0, rowSquares = 0.0
            for x in 0..<width {
                let v = Double(values[y * width + x])
                rowSum += v
                rowSquares += v * v
                let k = (y + 1) * (width + 1) + x + 1
                s[k] = s[k - width - 1] + rowSum
                q[k] = q[k - width - 1] + rowSquares
            }
        }
        sum = s
        squares = q
    }

    /// Sum and sum of squares over columns xa..<xb, rows ya..<yb.
    @inline(__always)
    func sums(_ xa: Int, _ ya: Int, _ xb: Int, _ yb: Int) -> (Double, Double) {
        let s = width + 1
        let a = ya * s + xa, b = ya * s + xb, c = yb * s + xa, d = yb * s + xb
        return (sum[d] - sum[b] - sum[c] + sum[a], squares[d] - squares[b] - squares[c] + squares[a])
    }
}

/// Per-pixel sum and n·variance (Σx² − (Σx)²/n) of a (2r + 1)² window centred on each pixel (zero where
/// the window leaves the image).
struct WindowStatistics {
    let sum: [Float]
    let variance: [Float]

    init(_ values: [Float], width: Int, height: Int, radius r: Int) {
        let integral = IntegralImages(values, width: width, height: height)
        let n = Double((2 * r + 1) * (2 * r + 1))
        var s = [Float](repeating: 0, count: width * height), v = s
        if width > 2 * r, height > 2 * r {
            for y in r..<(height - r) {
                for x in r..<(width - r) {
                    let (a, b) = integral.sums(x - r, y - r, x + r + 1, y + r + 1)
                    s[y * width + x] = Float(a)
                    v[y * width + x] = Float(max(0, b - a * a / n))
                }
            }
        }
        sum = s
        variance = v
    }
}
