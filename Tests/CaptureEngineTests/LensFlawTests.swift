@testable import CameraSimulation
import CaptureCore
import ImagePipeline
import Testing

/// The simulated lens distorts and splits colours as a phone lens does, and the ISP's correction gives back the
/// ideal pinhole view: measured against the same scene rendered through an ideal lens (`withIdealLens`), by local
/// sub-pixel matching of textured tiles across the frame.
@Suite(.serialized) struct LensFlawTests {
    static let size = Size(width: 2016, height: 1512)
    static let module = CameraModule.backWide
    static let flawed = SimulatedCamera(module: module, scene: .default, seed: 3)
    static let ideal = SimulatedCamera(module: module.withIdealLens, scene: .default, seed: 3)
    static let exposure: SensorExposure = {
        let m = flawed.meter(size: size)
        return SensorExposure(size: size, duration: m.duration, iso: m.iso, seed: 11)
    }()
    static let lens = module.lensCorrection(size: size)

    @Test func theLensDistortsAndSplitsColoursByItsModel() throws {
        // Both with the cos⁴ fall-off divided out, so only the scene's texture is matched.
        let seen = Self.lens.shadingCorrected(Self.flawed.groundTruth(Self.exposure) as Raster<Float>)
        let truth = Self.lens.shadingCorrected(Self.ideal.groundTruth(Self.exposure) as Raster<Float>)
        var greenErrors: [Double] = [], redErrors: [Double] = [], strong = 0, chromatic = 0
        for c in Self.tileCentres(plane(truth, 1)) {
            let predicted = Self.lens.recordedPoint(ofCorrected: c, plane: 1) - c
            guard let measured = Self.shift(plane(seen, 1), plane(truth, 1), at: c, around: predicted) else { continue }
            greenErrors.append(norm(measured - predicted))
            if norm(predicted) > 8 { strong += 1 }
            // Lateral CA: red against green inside the one recorded image.
            let red = Self.lens.recordedPoint(ofCorrected: c, plane: 0) - Self.lens.recordedPoint(ofCorrected: c, plane: 1)
            guard let redMeasured = Self.shift(plane(seen, 0), plane(seen, 1), at: (c + predicted).rounded(.toNearestOrEven), around: .zero) else { continue }
            redErrors.append(norm(redMeasured - red))
            if norm(red) > 0.35 { chromatic += 1 }
        }
        #expect(greenErrors.count >= 8 && strong >= 4 && chromatic >= 2, "\(greenErrors.count) tiles, \(strong) far, \(chromatic) chromatic")
        // Shifts up to 18 px at the corners; this estimator's floor on the room's soft textures is ≈ 0.1–0.7 px a tile.
        #expect(Self.median(greenErrors) < 0.5, "green errors \(greenErrors)")
        #expect(Self.median(redErrors) < 0.15, "red errors \(redErrors)")
    }

    @Test func theCorrectionGivesBackThePinholeView() throws {
        let seen: Raster<Float> = Self.flawed.groundTruth(Self.exposure), truth: Raster<Float> = Self.ideal.groundTruth(Self.exposure)
        let corrected = Self.lens.corrected(Self.lens.shadingCorrected(seen))
        let flat = Self.lens.shadingCorrected(truth)
        var errors: [[Double]] = [[], [], []]
        for c in Self.tileCentres(plane(flat, 1)) {
            for p in 0..<3 {
                guard let measured = Self.shift(plane(corrected, p), plane(flat, p), at: c, around: .zero) else { continue }
                errors[p].append(norm(measured))
            }
        }
        for p in 0..<3 {
            #expect(errors[p].count >= 8)
            #expect(Self.median(errors[p]) < 0.35, "plane \(p): \(errors[p])")
        }
        // Shading: the correction brightens by exactly what cos⁴ took.
        let g = ViewGeometry(module: Self.module, size: Self.size)
        for point in [SIMD2(0.5, 0.5), SIMD2(1000.5, 200.5), SIMD2(2015.5, 1511.5)] {
            #expect(abs(Self.lens.gain(at: point) * g.cos4(x: point.x, y: point.y) - 1) < 1e-9)
        }
    }

    @Test func theISPCorrectsThePhotoAndKeepsTheFlawsWhenAsked() throws {
        let raw = Self.flawed.capture(Self.exposure)
        #expect(raw.lensCorrection == Self.lens)
        let truth: Raster<Float> = Self.ideal.groundTruth(Self.exposure)
        let reference = ImageSignalProcessor().renderReference(Self.lens.shadingCorrected(truth))
        let photo = ImageSignalProcessor().process(raw)
        var settings = ISPSettings()
        settings.correctsDistortion = false
        let uncorrected = ImageSignalProcessor(settings: settings).process(raw)
        var correctedErrors: [Double] = [], keptErrors: [Double] = [], far = 0
        for c in Self.tileCentres(plane(reference, 1)) {
            let predicted = Self.lens.recordedPoint(ofCorrected: c, plane: 1) - c
            if let corrected = Self.shift(plane(photo, 1), plane(reference, 1), at: c, around: .zero) {
                correctedErrors.append(norm(corrected))
            }
            if let kept = Self.shift(plane(uncorrected, 1), plane(reference, 1), at: c, around: predicted) {
                keptErrors.append(norm(kept - predicted))
                if norm(predicted) > 8 { far += 1 }
            }
        }
        #expect(correctedErrors.count >= 6 && far >= 3)
        // Noise and the estimator's floor: ≈ 0.65 px median here, against shifts of up to 18 px without the correction.
        #expect(Self.median(correctedErrors) < 0.8, "\(correctedErrors)")
        #expect(Self.median(keptErrors) < 0.7, "the uncorrected photo keeps the lens's distortion: \(keptErrors)")
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .infinity }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
    }

    // MARK: Measuring

    func plane(_ image: Raster<Float>, _ p: Int) -> Raster<Float> {
        Raster(width: image.width, height: image.height, channels: 1,
               storage: (0..<(image.width * image.height)).map { image.storage[$0 * image.channels + min(p, image.channels - 1)] })
    }

    func plane(_ image: Raster<UInt8>, _ p: Int) -> Raster<Float> {
        Raster(width: image.width, height: image.height, channels: 1,
               storage: (0..<(image.width * image.height)).map { Float(image.storage[$0 * image.channels + p]) })
    }

    func norm(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

    static let tile = 64

    /// Centres of tiles on a 6×5 grid over the frame whose reference texture is two-dimensional (the smaller
    /// eigenvalue of the gradient structure tensor well above zero), so a shift can be measured in both directions.
    static func tileCentres(_ reference: Raster<Float>) -> [SIMD2<Double>] {
        var out: [SIMD2<Double>] = []
        let xs = [0.07, 0.25, 0.42, 0.58, 0.75, 0.93], ys = [0.08, 0.27, 0.5, 0.73, 0.92]
        for fy in ys {
            for fx in xs {
                let c = SIMD2((fx * Double(size.width)).rounded(), (fy * Double(size.height)).rounded())
                let t = structure(reference, at: c)
                let trace = t.xx + t.yy, det = t.xx * t.yy - t.xy * t.xy
                let smaller = trace / 2 - (max(0, trace * trace / 4 - det)).squareRoot()
                if smaller > 0.02 * t.energy { out.append(c) }
            }
        }
        return out
    }

    /// Gradient structure tensor of the normalised tile at `c`, and its mean squared value.
    static func structure(_ image: Raster<Float>, at c: SIMD2<Double>) -> (xx: Double, yy: Double, xy: Double, energy: Double) {
        let values = sample(image, at: c, offset: .zero)
        var xx = 0.0, yy = 0.0, xy = 0.0
        for j in 1..<(tile - 1) {
            for i in 1..<(tile - 1) {
                let gx = Double(values.v[j * tile + i + 1] - values.v[j * tile + i - 1]) / 2
                let gy = Double(values.v[(j + 1) * tile + i] - values.v[(j - 1) * tile + i]) / 2
                xx += gx * gx; yy += gy * gy; xy += gx * gy
            }
        }
        let n = Double((tile - 2) * (tile - 2))
        return (xx / n, yy / n, xy / n, 1)
    }

    /// The tile × tile samples of `image` centred on `c` + `offset` (bilinear), normalised to zero mean and unit
    /// variance, with their horizontal and vertical gradients.
    static func sample(_ image: Raster<Float>, at c: SIMD2<Double>, offset: SIMD2<Double>) -> (v: [Float], gx: [Float], gy: [Float]) {
        let half = Double(tile) / 2
        func read(_ x: Double, _ y: Double) -> Float {
            let cx = min(max(x, 0), Double(image.width - 1)), cy = min(max(y, 0), Double(image.height - 1))
            let x0 = min(Int(cx), image.width - 2), y0 = min(Int(cy), image.height - 2)
            let fx = Float(cx - Double(x0)), fy = Float(cy - Double(y0))
            let w = image.width, s = image.storage
            let top = s[y0 * w + x0] + (s[y0 * w + x0 + 1] - s[y0 * w + x0]) * fx
            let bottom = s[(y0 + 1) * w + x0] + (s[(y0 + 1) * w + x0 + 1] - s[(y0 + 1) * w + x0]) * fx
            return top + (bottom - top) * fy
        }
        var v = [Float](), gx = [Float](), gy = [Float]()
        for j in 0..<tile {
            for i in 0..<tile {
                let x = c.x - half + Double(i) + offset.x, y = c.y - half + Double(j) + offset.y
                v.append(read(x, y))
                gx.append((read(x + 0.5, y) - read(x - 0.5, y)))
                gy.append((read(x, y + 0.5) - read(x, y - 0.5)))
            }
        }
        let mean = v.reduce(0, +) / Float(v.count)
        let sd = max((v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(v.count)).squareRoot(), 1e-9)
        return (v.map { ($0 - mean) / sd }, gx.map { $0 / sd }, gy.map { $0 / sd })
    }

    /// Where `reference`'s tile at `c` is found in `image` (pixels, sub-pixel), starting from `around`: Lucas–Kanade
    /// on the normalised tiles (gain and offset removed), iterated; nil when it does not settle within 4 px.
    static func shift(_ image: Raster<Float>, _ reference: Raster<Float>, at c: SIMD2<Double>,
                      around: SIMD2<Double>) -> SIMD2<Double>? {
        let target = sample(reference, at: c, offset: .zero).v
        var s = around
        for _ in 0..<30 {
            let current = sample(image, at: c, offset: s)
            var a = 0.0, b = 0.0, d = 0.0, ex = 0.0, ey = 0.0
            for k in current.v.indices {
                let gx = Double(current.gx[k]), gy = Double(current.gy[k]), e = Double(current.v[k] - target[k])
                a += gx * gx; b += gx * gy; d += gy * gy
                ex += gx * e; ey += gy * e
            }
            let det = a * d - b * b
            guard det > 1e-12 else { return nil }
            let step = SIMD2(-(d * ex - b * ey) / det, -(a * ey - b * ex) / det)
            s += SIMD2(max(-1, min(1, step.x)), max(-1, min(1, step.y)))
            guard ((s - around) * (s - around)).sum() < 16 else { return nil }
            if (step * step).sum() < 1e-8 { break }
        }
        return s
    }

}
