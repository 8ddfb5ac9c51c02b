import CaptureCore
import Foundation

extension SimulatedCamera {
    /// Focus distances are cached in steps of this many dioptres (far below any module's depth of field, ≥ 0.13 D).
    static let focusQuantum = 0.01

    /// The focus the lens really takes for a requested distance: clamped to what the module can focus on (a
    /// fixed-focus module stays at its one distance), in whole `focusQuantum` steps of dioptres (0 = infinity).
    func focusSteps(_ requested: Double) -> Int {
        let s = module.focusDistance(lensPosition: module.lensPosition(focusDistance: requested))
        return s.isInfinite ? 0 : Int((1 / s / SimulatedCamera.focusQuantum).rounded())
    }

    static func focusDistance(steps: Int) -> Double {
        steps <= 0 ? .infinity : 1 / (Double(steps) * focusQuantum)
    }

    /// `planes` (all in focus) as the lens focused at `focusDistance` images them: every pixel's light spread over
    /// its thin-lens blur circle at this readout's pixel pitch, occlusion-aware (`DefocusBlur`). The flash ratio
    /// follows the green channel (blurred flash-lit green over blurred green).
    func defocused(_ planes: SensorPlanes, geometry g: ViewGeometry, focusDistance s: Double) -> SensorPlanes {
        let w = planes.width, h = planes.height, count = w * h
        let pitchMM = g.pixelPitch / 1000
        var coc = [Float](repeating: 0, count: count)
        var flash = [Float](repeating: 0, count: count)
        coc.withUnsafeMutableBufferPointer { cocBuffer in
            flash.withUnsafeMutableBufferPointer { flashBuffer in
                planes.depth.withUnsafeBufferPointer { depth in
                    planes.rate.withUnsafeBufferPointer { rate in
                        planes.flashRatio.withUnsafeBufferPointer { ratio in
                            let cp = cocBuffer.baseAddress!, fp = flashBuffer.baseAddress!
                            Parallel.forEachBand(height: h, bandHeight: 64) { rows in
                                for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
                                    cp[i] = Float(module.circleOfConfusion(depth: Double(depth[i]), focusDistance: s) / pitchMM)
                                    fp[i] = rate[3 * i + 1] * ratio[i]
                                }
                            }
                        }
                    }
                }
            }
        }
        let out = DefocusBlur.blurred(
            [Raster(width: w, height: h, channels: 3, storage: planes.rate.values), Raster(width: w, height: h, channels: 1, storage: flash)],
            cocDiameter: Raster(width: w, height: h, channels: 1, storage: coc),
            depth: Raster(width: w, height: h, channels: 1, storage: planes.depth.values))
        let rate = out[0].storage, flashLit = out[1].storage
        var ratio = [Float](repeating: 0, count: count)
        for i in 0..<count where rate[3 * i + 1] > 0 { ratio[i] = flashLit[i] / rate[3 * i + 1] }
        return SensorPlanes(width: w, height: h, rate: PlaneStorage(rate), flashRatio: PlaneStorage(ratio),
                            fixedPattern: planes.fixedPattern, depth: planes.depth)
    }

    /// Contrast-detection auto focus at a point of interest (Apple's convention: (0,0) top-left, (1,1) bottom-right
    /// of the unrotated landscape image of readout `size`), on noisy frames the simulated sensor produces, never
    /// reading the depth truth.
    ///
    /// Like a phone: a 192-pixel square window around the point at the sensor's native pixel pitch (blur is
    /// measured where the sensor resolves it), exposed with `exposure`'s duration, ISO and flash through the full
    /// noise model at each candidate lens position; a coarse sweep of 12 positions evenly spaced in dioptres, then
    /// fine steps of a quarter of the coarse spacing around the best, and the parabolic peak of a gradient-energy
    /// focus measure (squared differences of 2×2 Bayer-quad sums). When the sweep finds no contrast (its best under
    /// `focusContrastGain` × its blurriest frame), the lens goes to the hyperfocal distance. A fixed-focus module answers at once.
    public func autoFocus(pointOfInterest: SIMD2<Double>, size: Size, exposure: SensorExposure) -> AutoFocusResult {
        guard module.supportsAutoFocus else {
            return AutoFocusResult(lensPosition: 0, focusDistance: module.minimumFocusDistance, framesExamined: 0,
                                   sweepDuration: 0)
        }
        // The sweep is deterministic (same camera, scene, point and exposure ⇒ same frames): an earlier process's
        // answer is this one's.
        let key = "auto focus|\(RenderCache.buildIdentity)|\(module)|\(scene)|seed \(seed)|\(pointOfInterest)|\(size)|\(exposure)"
        if let v = renderCache?.loadValues(key: key, count: 4) {
            return AutoFocusResult(lensPosition: v[0], focusDistance: v[1], framesExamined: Int(v[2]), sweepDuration: v[3])
        }
        let result = sweepAutoFocus(pointOfInterest: pointOfInterest, size: size, exposure: exposure)
        renderCache?.storeValues(key: key, [result.lensPosition, result.focusDistance, Double(result.framesExamined),
                                            result.sweepDuration])
        return result
    }

    func sweepAutoFocus(pointOfInterest: SIMD2<Double>, size: Size, exposure: SensorExposure) -> AutoFocusResult {
        let native = ViewGeometry(module: module, size: module.nativeSize)
        let readout = ViewGeometry(module: module, size: size)
        func clamp(_ v: Double) -> Double { v.isNaN ? 0.5 : min(max(v, 0), 1) }
        // The point in the readout → the same ray in native pixels (both views share the optical axis).
        let point = SIMD2(clamp(pointOfInterest.x) * Double(readout.width), clamp(pointOfInterest.y) * Double(readout.height))
        let centre = SIMD2(Double(native.width) / 2, Double(native.height) / 2)
            + (point - SIMD2(Double(readout.width) / 2, Double(readout.height) / 2)) * (native.focalPixels / readout.focalPixels)
        let side = min(192, native.width, native.height)
        let margin = 48
        let x0 = min(max(Int(centre.x) - side / 2, 0), native.width - side)
        let y0 = min(max(Int(centre.y) - side / 2, 0), native.height - side)
        let wx0 = max(0, x0 - margin), wy0 = max(0, y0 - margin)
        let wx1 = min(native.width, x0 + side + margin), wy1 = min(native.height, y0 + side + margin)
        let window = native.window(x: wx0, y: wy0, width: wx1 - wx0, height: wy1 - wy0)
        let sharp = renderSensorPlanes(window)
        let model = SensorModel(module: module, geometry: native, duration: max(0, exposure.duration),
                                iso: max(1e-6, exposure.iso))
        let constants = NoiseConstants(
            time: Float(max(0, exposure.duration)), darkMean: Float(model.darkMean), fullWell: Float(model.fullWell),
            prnu: Float(model.prnu), dsnu: Float(model.dsnu), read: Float(model.readNoise),
            dnPerElectron: Float(model.conversion * model.gain), black: Float(model.black), white: Float(model.white),
            flashGain: Float(exposure.flash && module.hasFlash ? module.flashIntensity : 0))
        // Measured region inside the window, rounded to whole Bayer quads.
        let mx = (x0 - wx0) & ~1, my = (y0 - wy0) & ~1
        var frames = 0
        var measured: [Double: Double] = [:]
        func measure(_ position: Double) -> Double {
            if let m = measured[position] { return m }
            let planes = defocused(sharp, geometry: window, focusDistance: module.focusDistance(lensPosition: position))
            let seed = RandomSource.mix(RandomSource.mix(self.seed, exposure.seed), 0xAF00 + UInt64(frames))
            frames += 1
            let w = window.width, h = window.height
            let raw = [UInt16](unsafeUninitializedCapacity: w * h) { out, initialized in
                initialized = w * h
                CaptureKernel.run(planes: planes, taps: [ShakeTap(dx: 0, dy: 0, weight: 1)], colours: module.cfa.colors,
                                  constants: constants, frameSeed: seed, out: out.baseAddress!)
            }
            let m = SimulatedCamera.focusMeasure(raw, width: w, x: mx, y: my, side: side & ~1)
            measured[position] = m
            return m
        }
        let coarse = 12
        let step = 1 / Double(coarse - 1)
        var best = 0.0, bestMeasure = -Double.infinity
        for i in 0..<coarse {
            let p = Double(i) * step, m = measure(p)
            if m > bestMeasure { best = p; bestMeasure = m }
        }
        // No contrast to find (plain plaster, a flat wall under noise): the sweep's sharpest frame measures hardly
        // above its blurriest. A phone then parks the lens at the hyperfocal distance, where the most is acceptably sharp,
        // rather than at whichever noise spike won.
        let blurriest = (0..<coarse).map { measure(Double($0) * step) }.min() ?? bestMeasure
        if bestMeasure < SimulatedCamera.focusContrastGain * blurriest {
            let position = module.lensPosition(focusDistance: module.hyperfocalDistance)
            return AutoFocusResult(lensPosition: position, focusDistance: module.focusDistance(lensPosition: position),
                                   framesExamined: frames, sweepDuration: Double(frames) * max(exposure.duration, 1.0 / 30))
        }
        let fine = step / 4
        var peak = best
        for k in -4...4 {
            let p = best + Double(k) * fine
            guard p >= -1e-12, p <= 1 + 1e-12 else { continue }
            let m = measure(min(max(p, 0), 1))
            if m > bestMeasure { peak = min(max(p, 0), 1); bestMeasure = m }
        }
        // Parabola through the best fine sample and its neighbours.
        var position = peak
        if peak - fine >= -1e-12, peak + fine <= 1 + 1e-12 {
            let a = measure(max(peak - fine, 0)), b = bestMeasure, c = measure(min(peak + fine, 1))
            let curvature = a - 2 * b + c
            if curvature < 0 { position = peak + fine * min(max((a - c) / (2 * curvature), -1), 1) * 1 }
        }
        position = min(max(position, 0), 1)
        let frameTime = max(exposure.duration, 1.0 / 30)
        return AutoFocusResult(lensPosition: position, focusDistance: module.focusDistance(lensPosition: position),
                               framesExamined: frames, sweepDuration: Double(frames) * frameTime)
    }

    /// How far above the sweep's blurriest frame the sharpest must measure for auto focus to trust it: plain
    /// plaster in the simulated room measures 1.04–1.06, the weakest textured subject tested 1.23.
    static let focusContrastGain = 1.08

    /// Gradient energy of 2×2 Bayer-quad sums (a colour-blind luminance at half resolution) over a square of
    /// `side` pixels at (x, y) of a raw window `width` wide, relative to the squared mean (independent of exposure).
    static func focusMeasure(_ raw: [UInt16], width w: Int, x: Int, y: Int, side: Int) -> Double {
        let n = side / 2
        var quads = [Double](repeating: 0, count: n * n)
        for j in 0..<n {
            for i in 0..<n {
                let o = (y + 2 * j) * w + x + 2 * i
                quads[j * n + i] = Double(raw[o]) + Double(raw[o + 1]) + Double(raw[o + w]) + Double(raw[o + w + 1])
            }
        }
        let mean = quads.reduce(0, +) / Double(quads.count)
        var energy = 0.0
        for j in 1..<n {
            for i in 1..<n {
                let v = quads[j * n + i]
                let dx = v - quads[j * n + i - 1], dy = v - quads[(j - 1) * n + i]
                energy += dx * dx + dy * dy
            }
        }
        return energy / max(mean * mean, 1e-12) / Double((n - 1) * (n - 1))
    }
}
