import CaptureCore
import Foundation

extension SimulatedCamera {
    /// Exposes the sensor: 14-bit Bayer codes with black level, Poisson shot noise, dark current, PRNU/DSNU fixed
    /// per session seed, read noise, analog gain = iso/baseISO, ADC rounding and clipping at the white level
    /// (EMVA 1288 order). Hand-shake blur grows with duration; OIS cuts it 5×. Same request and camera seed ⇒ same frame.
    public func capture(_ exposure: SensorExposure) -> RawImage {
        let g = ViewGeometry(module: module, size: exposure.size)
        let planes = sensorPlanes(size: exposure.size)
        let duration = max(0, exposure.duration)
        let model = SensorModel(module: module, geometry: g, duration: duration, iso: max(1e-6, exposure.iso))
        let flashOn = exposure.flash && module.hasFlash
        let taps = shakeTaps(exposure, geometry: g)
        let w = g.width, h = g.height
        let colours = module.cfa.colors
        let flashGain = Float(flashOn ? module.flashIntensity : 0)

        let darkMean = Float(model.darkMean), fullWell = Float(model.fullWell)
        let prnu = Float(model.prnu), dsnu = Float(model.dsnu), read = Float(model.readNoise)
        let dnPerElectron = Float(model.conversion * model.gain)
        let black = Float(model.black), whiteCode = Float(model.white)
        let frameSeed = RandomSource.mix(seed, exposure.seed)

        let constants = NoiseConstants(time: Float(duration), darkMean: darkMean, fullWell: fullWell, prnu: prnu, dsnu: dsnu,
                                       read: read, dnPerElectron: dnPerElectron, black: black, white: whiteCode,
                                       flashGain: flashGain)
        let tapDX = taps.map { $0.dx }, tapDY = taps.map { $0.dy }, tapW = taps.map { $0.weight }
        let minDX = tapDX.min() ?? 0, maxDX = tapDX.max() ?? 0
        // Every element is written below; skip the zero fill of 24 MB at full resolution.
        let bayer = [UInt16](unsafeUninitializedCapacity: w * h) { out, initialized in
            initialized = w * h
            planes.rate.withUnsafeBufferPointer { rateBuffer in
                planes.flashRatio.withUnsafeBufferPointer { ratioBuffer in
                    SmallGaussianTable.values.withUnsafeBufferPointer { gaussBuffer in
                      planes.fixedPattern.withUnsafeBufferPointer { patternBuffer in
                        tapDX.withUnsafeBufferPointer { dxBuffer in
                            tapDY.withUnsafeBufferPointer { dyBuffer in
                                tapW.withUnsafeBufferPointer { wBuffer in
                                    let op = out.baseAddress!, rate = rateBuffer.baseAddress!, ratio = ratioBuffer.baseAddress!
                                    let gauss = gaussBuffer.baseAddress!, pattern = patternBuffer.baseAddress!
                                    let dxs = dxBuffer.baseAddress!, dys = dyBuffer.baseAddress!, ws = wBuffer.baseAddress!
                                    let tapCount = taps.count
                                    Parallel.forEachBandIndexed(height: h, bandHeight: 32) { band, rows in
                                        var rng = NoiseStream(RandomSource(seed: frameSeed, stream: UInt64(band)))
                                        let rowBase = UnsafeMutablePointer<Int>.allocate(capacity: max(1, tapCount))
                                        let means = UnsafeMutablePointer<Float>.allocate(capacity: w)
                                        defer { rowBase.deallocate(); means.deallocate() }
                                        for y in rows {
                                            for t in 0..<tapCount { rowBase[t] = min(max(y + dys[t], 0), h - 1) * w }
                                            let c0 = colours[(y & 1) << 1], c1 = colours[(y & 1) << 1 | 1]
                                            // Mean photo-electron rate along the shake path, per pixel of this row.
                                            let interior = min(w, max(0, -minDX))..<max(min(w, max(0, -minDX)), min(w, w - maxDX))
                                            func edge(_ x: Int) {
                                                let c = (x & 1) == 0 ? c0 : c1
                                                var mean: Float = 0
                                                for t in 0..<tapCount {
                                                    let i = rowBase[t] + min(max(x + dxs[t], 0), w - 1)
                                                    mean += ws[t] * rate[3 * i + c] * (1 + flashGain * ratio[i])
                                                }
                                                means[x] = mean
                                            }
                                            for x in 0..<interior.lowerBound { edge(x) }
                                            if !interior.isEmpty {
                                                SimulatedCamera.pathMeanInterior(
                                                    row: interior, parity: (c0, c1), taps: tapCount, dx: dxs, w: ws,
                                                    rowBase: rowBase, rate: rate, ratio: ratio, flashGain: flashGain, into: means)
                                            }
                                            for x in max(interior.upperBound, interior.lowerBound)..<w { edge(x) }
                                            SimulatedCamera.exposeRow(width: w, means: means, constants: constants, gauss: gauss,
                                                                      pattern: pattern + 2 * y * w, rng: &rng, out: op + y * w)
                                        }
                                    }
                                }
                            }
                        }
                    }
                      }
                }
            }
        }
        let profile = model.noiseProfile
        return RawImage(
            bayer: Raster(width: w, height: h, channels: 1, storage: bayer), cfa: module.cfa, bitDepth: module.bitDepth,
            blackLevel: [Float](repeating: Float(module.blackLevel), count: 4), whiteLevel: module.whiteLevel,
            asShotNeutral: module.whiteResponse, cameraToSRGB: module.cameraToSRGB,
            noiseProfile: [profile, profile, profile],
            exposure: ExposureRecord(duration: exposure.duration, iso: exposure.iso, bias: exposure.bias,
                                     flashFired: flashOn, startTime: exposure.startTime))
    }

    /// Ground truth for the same request without noise and clipping: linear sRGB at `exposure.size` after optics,
    /// the same hand-shake blur/offset and flash, scaled so 1.0 = the white level for a neutral surface at this exposure.
    public func groundTruth(_ exposure: SensorExposure) -> Raster<Float> {
        let g = ViewGeometry(module: module, size: exposure.size)
        let planes = sensorPlanes(size: exposure.size)
        let model = SensorModel(module: module, geometry: g, duration: exposure.duration, iso: max(1e-6, exposure.iso))
        let taps = shakeTaps(exposure, geometry: g)
        let w = g.width, h = g.height
        let flashGain = Float(exposure.flash && module.hasFlash ? module.flashIntensity : 0)
        let toSRGB = module.cameraToSRGB
        let white = module.whiteResponse
        let scale = max(0, exposure.duration) * model.gain / model.fullWell
        // Camera RGB (electrons) → white balance → sRGB, with the exposure scale folded in.
        func entry(_ r: Int, _ c: Int) -> Float { Float(toSRGB[r, c] * scale / white[c]) }
        let m0 = SIMD3(entry(0, 0), entry(0, 1), entry(0, 2))
        let m1 = SIMD3(entry(1, 0), entry(1, 1), entry(1, 2))
        let m2 = SIMD3(entry(2, 0), entry(2, 1), entry(2, 2))
        var out = [Float](repeating: 0, count: w * h * 3)
        out.withUnsafeMutableBufferPointer { outBuffer in
            planes.rate.withUnsafeBufferPointer { rateBuffer in
                planes.flashRatio.withUnsafeBufferPointer { ratioBuffer in
                    let op = outBuffer.baseAddress!, rate = rateBuffer.baseAddress!, ratio = ratioBuffer.baseAddress!
                    Parallel.forEachBand(height: h, bandHeight: 32) { rows in
                        for y in rows {
                            for x in 0..<w {
                                var cam = SIMD3<Float>(0, 0, 0)
                                for tap in taps {
                                    let i = min(max(y + tap.dy, 0), h - 1) * w + min(max(x + tap.dx, 0), w - 1)
                                    let f = tap.weight * (1 + flashGain * ratio[i])
                                    cam += SIMD3(rate[3 * i], rate[3 * i + 1], rate[3 * i + 2]) * f
                                }
                                let o = 3 * (y * w + x)
                                op[o] = (m0 * cam).sum()
                                op[o + 1] = (m1 * cam).sum()
                                op[o + 2] = (m2 * cam).sum()
                            }
                        }
                    }
                }
            }
        }
        return Raster(width: w, height: h, channels: 3, storage: out)
    }

    /// Path-averaged electron rate for pixels whose taps all fall inside the row (no clamping).
    @inline(__always)
    static func pathMeanInterior(row: Range<Int>, parity: (Int, Int), taps: Int, dx: UnsafePointer<Int>, w: UnsafePointer<Float>,
                                 rowBase: UnsafePointer<Int>, rate: UnsafePointer<Float>, ratio: UnsafePointer<Float>,
                                 flashGain: Float, into means: UnsafeMutablePointer<Float>) {
        for x in row { means[x] = 0 }
        // Walk the row in CFA pairs so each lane reads one fixed colour (no per-pixel select).
        let even = row.lowerBound & 1 == 0 ? parity.0 : parity.1, odd = row.lowerBound & 1 == 0 ? parity.1 : parity.0
        let pairs = row.count / 2
        for t in 0..<taps {
            let base = rowBase[t] &+ dx[t] &+ row.lowerBound, weight = w[t]
            let m = means + row.lowerBound
            let r0 = rate + (3 &* base &+ even), r1 = rate + (3 &* base &+ 3 &+ odd)
            if flashGain > 0 {
                let f = ratio + base
                for p in 0..<pairs {
                    m[2 &* p] += weight * r0[6 &* p] * (1 + flashGain * f[2 &* p])
                    m[2 &* p &+ 1] += weight * r1[6 &* p] * (1 + flashGain * f[2 &* p &+ 1])
                }
                if row.count & 1 == 1 { m[2 &* pairs] += weight * r0[6 &* pairs] * (1 + flashGain * f[2 &* pairs]) }
            } else {
                for p in 0..<pairs {
                    m[2 &* p] += weight * r0[6 &* p]
                    m[2 &* p &+ 1] += weight * r1[6 &* p]
                }
                if row.count & 1 == 1 { m[2 &* pairs] += weight * r0[6 &* pairs] }
            }
        }
    }

    /// Steps 1–7 of the sensor model for one row of mean electron rates.
    @inline(__always)
    static func exposeRow(width: Int, means: UnsafePointer<Float>, constants k: NoiseConstants, gauss: UnsafePointer<Float>,
                          pattern: UnsafePointer<Int8>, rng: inout NoiseStream, out: UnsafeMutablePointer<UInt16>) {
        let prnu = k.prnu / 32, dsnu = k.dsnu / 32
        for x in 0..<width {
            let lambda = means[x] * k.time + k.darkMean
            let bits = rng.next()
            // 1–3. Shot noise and dark current (Poisson, exact below 30 e⁻), full-well clip.
            var electrons: Float
            if lambda < 30 {
                electrons = smallPoisson(lambda, uniform: Float(bits >> 40) * (1.0 / 16_777_216.0))
            } else {
                // Whole electrons by the 1.5·2²³ trick (exact below 4 M e⁻; beyond, an electron is far below a DN).
                electrons = lambda + lambda.squareRoot() * gauss[Int(bits & 0xFFF)]
                if electrons < 4_000_000 { electrons = (electrons + 12_582_912) - 12_582_912 }
            }
            electrons = min(electrons, k.fullWell)
            // 4. PRNU and DSNU, fixed per session seed and pixel.
            electrons = electrons * (1 + prnu * Float(pattern[2 &* x])) + dsnu * Float(pattern[2 &* x &+ 1])
            // 5. Read noise.
            electrons += k.read * gauss[Int((bits >> 16) & 0xFFF)]
            // 6–7. Gain, conversion, black level, rounding, clipping.
            let code = min(max(electrons * k.dnPerElectron + k.black, 0), k.white)
            // Round to the nearest code through the float's mantissa (exact for 0 ≤ code < 2²²; no checked conversion).
            out[x] = UInt16(truncatingIfNeeded: (code + 12_582_912).bitPattern & 0x3F_FFFF)
        }
    }

    /// Motion kernel of `exposure`, weights normalised to one.
    func shakeTaps(_ exposure: SensorExposure, geometry g: ViewGeometry) -> [ShakeTap] {
        var taps = shake.kernel(start: exposure.startTime, duration: max(0, exposure.duration),
                                focalPixels: g.focalPixels, residual: residualShake(exposure.opticalStabilization))
        let total = taps.reduce(Float(0)) { $0 + $1.weight }
        if total > 0 { for i in taps.indices { taps[i].weight /= total } }
        return taps
    }

    /// Poisson deviate for a small mean by inversion of the CDF with one uniform.
    @inline(__always)
    static func smallPoisson(_ lambda: Float, uniform u: Float) -> Float {
        guard lambda > 0 else { return 0 }
        var p = exp(-lambda), cdf = p, k: Float = 0
        while u > cdf && k < 200 {
            k += 1
            p *= lambda / k
            cdf += p
        }
        return k
    }
}
