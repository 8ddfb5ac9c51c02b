import CaptureCore
import Foundation

/// Depth from a structured-light (TrueDepth-class) infrared frame: block matching of the observed dot
/// pattern against the reference recording along image rows.
///
/// Both images are locally contrast-normalised; each pixel's window is matched by zero-mean normalised
/// cross-correlation (ZNCC, running sums) at every integer disparity d (observed x − reference x) the
/// calibration's working range allows; the best peak is refined by a parabola, and depth follows from
/// d = f·B·(1/Z − 1/Z₀), i.e. Z = f·B / (f·B/Z₀ + d). A pixel gets NaN when the pattern is not found:
/// a weak or ambiguous peak, too little dot contrast (dark or distant surfaces, projector shadows), or a
/// peak at the edge of the searched range (the surface is outside the working range).
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
        /// How far the best peak must stand above the best score away from it (more than one pixel off):
        /// rejects ambiguous matches, including surfaces nearer or farther than the searched range.
        public var minimumPeakMargin: Float

        public init(windowRadius: Int = 5, normalizationRadius: Int = 7, minimumCorrelation: Float = 0.6,
                    minimumContrast: Float = 0.004, minimumPeakMargin: Float = 0.15) {
            self.windowRadius = windowRadius
            self.normalizationRadius = normalizationRadius
            self.minimumCorrelation = minimumCorrelation
            self.minimumContrast = minimumContrast
            self.minimumPeakMargin = minimumPeakMargin
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
        let minimumCorrelation = parameters.minimumCorrelation, minimumContrast = parameters.minimumContrast
        let minimumPeakMargin = parameters.minimumPeakMargin

        withPointers(normalized, normalizedReference, contrast, windowIR.mean, windowIR.inverseNorm,
                     windowReference.sum, windowReference.inverseNorm) { a, b, contrastP, meanA, normA, sumB, normB in
            out.withUnsafeMutableBufferPointer { outBuffer in
                let o = outBuffer.baseAddress!
                Parallel.forEachBand(height: h - 2 * r, bandHeight: 24) { bandRows in
                    let y0 = bandRows.lowerBound + r, y1 = bandRows.upperBound + r
                    let n = (y1 - y0) * w
                    // Per pixel of the band: best score and disparity, the scores either side of it, and the
                    // scores of the previous disparity.
                    let best = UnsafeMutablePointer<Float>.allocate(capacity: n)
                    let bestD = UnsafeMutablePointer<Int32>.allocate(capacity: n)
                    let left = UnsafeMutablePointer<Float>.allocate(capacity: n)
                    let right = UnsafeMutablePointer<Float>.allocate(capacity: n)
                    let second = UnsafeMutablePointer<Float>.allocate(capacity: n)
                    var previous = UnsafeMutablePointer<Float>.allocate(capacity: n)
                    var current = UnsafeMutablePointer<Float>.allocate(capacity: n)
                    let c = UnsafeMutablePointer<Float>.allocate(capacity: w)
                    defer {
                        best.deallocate(); bestD.deallocate(); left.deallocate(); right.deallocate(); second.deallocate()
                        previous.deallocate(); current.deallocate(); c.deallocate()
                    }
                    best.initialize(repeating: -2, count: n)
                    bestD.initialize(repeating: Int32.min, count: n)
                    left.initialize(repeating: -2, count: n)
                    right.initialize(repeating: -2, count: n)
                    second.initialize(repeating: -2, count: n)
                    previous.initialize(repeating: -2, count: n)
                    current.initialize(repeating: -2, count: n)
                    c.initialize(repeating: 0, count: w)
                    for d in low...high {
                        // x − d must keep the reference window inside the image.
                        let xStart = max(r, r + d), xEnd = min(w - r, w - r + d)
                        guard xStart < xEnd else { continue }
                        let cStart = xStart - r, cEnd = xEnd + r
                        for x in cStart..<cEnd { c[x] = 0 }
                        for yy in (y0 - r)...(y0 + r) {
                            let ar = a + yy * w, br = b + yy * w - d
                            for x in cStart..<cEnd { c[x] += ar[x] * br[x] }
                        }
                        let dd = Int32(d), dPrevious = Int32(d - 1)
                        for y in y0..<y1 {
                            if y > y0 {
                                let ad = a + (y + r) * w, bd = b + (y + r) * w - d
                                let au = a + (y - r - 1) * w, bu = b + (y - r - 1) * w - d
                                for x in cStart..<cEnd { c[x] += ad[x] * bd[x] - au[x] * bu[x] }
                            }
                            var sum: Float = 0
                            for x in cStart..<(cStart + 2 * r) { sum += c[x] }
                            let k0 = (y - y0) * w, i0 = y * w
                            for x in xStart..<xEnd {
                                sum += c[x + r]
                                let ia = i0 + x, ib = ia - d, k = k0 + x
                                // ZNCC = (Σab − Σb·mean(a)) / (‖a − ā‖·‖b − b̄‖).
                                let score = (sum - meanA[ia] * sumB[ib]) * normA[ia] * normB[ib]
                                sum -= c[x - r]
                                current[k] = score
                                if bestD[k] == dPrevious { right[k] = score }
                                if score > best[k] {
                                    // The old peak becomes the runner-up unless it is this peak's neighbour.
                                    if bestD[k] < dPrevious, best[k] > second[k] { second[k] = best[k] }
                                    best[k] = score
                                    bestD[k] = dd
                                    left[k] = previous[k]
                                    right[k] = -2
                                } else if bestD[k] < dPrevious, score > second[k] {
                                    second[k] = score
                                }
                            }
                        }
                        swap(&previous, &current)
                        // Scores of pixels this disparity did not reach must not leak into the next one.
                        current.update(repeating: -2, count: n)
                    }
                    for y in y0..<y1 {
                        for x in r..<(w - r) {
                            let k = (y - y0) * w + x, i = y * w + x
                            let dBest = Int(bestD[k])
                            guard dBest > low, dBest < high, best[k] >= minimumCorrelation,
                                  contrastP[i] >= minimumContrast, best[k] - second[k] >= minimumPeakMargin,
                                  left[k] > -2, right[k] > -2 else { continue }
                            let curvature = left[k] - 2 * best[k] + right[k]
                            var shift: Float = 0
                            if curvature < 0 { shift = max(-0.5, min(0.5, 0.5 * (left[k] - right[k]) / curvature)) }
                            o[i] = Float(dBest) + shift
                        }
                    }
                }
            }
        }
        return Raster(width: w, height: h, channels: 1, storage: out)
    }

    /// Base addresses of seven arrays for the duration of `body`.
    private static func withPointers<R>(
        _ p0: [Float], _ p1: [Float], _ p2: [Float], _ p3: [Float], _ p4: [Float], _ p5: [Float], _ p6: [Float],
        _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                 UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> R) -> R {
        p0.withUnsafeBufferPointer { b0 in p1.withUnsafeBufferPointer { b1 in p2.withUnsafeBufferPointer { b2 in
            p3.withUnsafeBufferPointer { b3 in p4.withUnsafeBufferPointer { b4 in p5.withUnsafeBufferPointer { b5 in
                p6.withUnsafeBufferPointer { b6 in
                    body(b0.baseAddress!, b1.baseAddress!, b2.baseAddress!, b3.baseAddress!, b4.baseAddress!,
                         b5.baseAddress!, b6.baseAddress!)
                }
            } } }
        } } }
    }

    /// Local contrast normalisation (x − mean) / (σ + ε) over a (2r + 1)² box, and the local σ itself.
    static func normalize(_ image: Raster<Float>, radius: Int) -> (normalized: [Float], sigma: [Float]) {
        let w = image.width, h = image.height
        let integral = IntegralImages(image.storage, width: w, height: h)
        var normalized = [Float](repeating: 0, count: w * h), sigma = [Float](repeating: 0, count: w * h)
        let epsilon = 1e-3
        normalized.withUnsafeMutableBufferPointer { nb in
            sigma.withUnsafeMutableBufferPointer { sb in
                image.storage.withUnsafeBufferPointer { ib in
                    let np = nb.baseAddress!, sp = sb.baseAddress!, ip = ib.baseAddress!
                    Parallel.forEachBand(height: h, bandHeight: 32) { rows in
                        for y in rows {
                            let ya = max(0, y - radius), yb = min(h, y + radius + 1)
                            for x in 0..<w {
                                let xa = max(0, x - radius), xb = min(w, x + radius + 1)
                                let n = Double((yb - ya) * (xb - xa))
                                let (s, s2) = integral.sums(xa, ya, xb, yb)
                                let mean = s / n
                                let sd = max(0, s2 / n - mean * mean).squareRoot()
                                let i = y * w + x
                                sp[i] = Float(sd)
                                np[i] = Float((Double(ip[i]) - mean) / (sd + epsilon))
                            }
                        }
                    }
                }
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

/// Per-pixel window statistics of a (2r + 1)² window centred on each pixel: sum, mean and the reciprocal of
/// ‖x − x̄‖ = √(Σx² − (Σx)²/n) (zero where the window leaves the image or is flat).
struct WindowStatistics {
    let sum: [Float]
    let mean: [Float]
    let inverseNorm: [Float]

    init(_ values: [Float], width: Int, height: Int, radius r: Int) {
        let integral = IntegralImages(values, width: width, height: height)
        let n = Double((2 * r + 1) * (2 * r + 1))
        var s = [Float](repeating: 0, count: width * height), m = s, v = s
        if width > 2 * r, height > 2 * r {
            s.withUnsafeMutableBufferPointer { sb in
                m.withUnsafeMutableBufferPointer { mb in
                    v.withUnsafeMutableBufferPointer { vb in
                        let sp = sb.baseAddress!, mp = mb.baseAddress!, vp = vb.baseAddress!
                        Parallel.forEachBand(height: height - 2 * r, bandHeight: 32) { rows in
                            for y in (rows.lowerBound + r)..<(rows.upperBound + r) {
                                for x in r..<(width - r) {
                                    let (a, b) = integral.sums(x - r, y - r, x + r + 1, y + r + 1)
                                    let variance = b - a * a / n
                                    sp[y * width + x] = Float(a)
                                    mp[y * width + x] = Float(a / n)
                                    vp[y * width + x] = variance > 1e-6 ? Float(1 / variance.squareRoot()) : 0
                                }
                            }
                        }
                    }
                }
            }
        }
        sum = s
        mean = m
        inverseNorm = v
    }
}
