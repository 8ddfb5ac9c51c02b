import CaptureCore
import Foundation

/// The per-capture sensor kernel: path-averaged photo-electron rates along the hand-shake kernel, then the
/// EMVA 1288 steps per pixel, over row bands on all cores with one random stream per band.
enum CaptureKernel {
    /// Raw pointers into the cached planes and the motion kernel, valid for one `run`.
    struct Inputs {
        let width: Int
        let height: Int
        let rate: UnsafePointer<Float>
        let ratio: UnsafePointer<Float>
        let pattern: UnsafePointer<Int8>
        let gauss: UnsafePointer<Float>
        let dx: UnsafePointer<Int>
        let dy: UnsafePointer<Int>
        let weight: UnsafePointer<Float>
        let tapCount: Int
        let minDX: Int
        let maxDX: Int
    }

    /// Exposes rows `top ..< top + rows` of the planes (all of them by default) into `out`, whose first row is row `top`.
    static func run(planes: SensorPlanes, taps: [ShakeTap], colours: [Int], constants: NoiseConstants, frameSeed: UInt64,
                    out: UnsafeMutablePointer<UInt16>, top: Int = 0, rows: Int? = nil, pendulum: PendulumOverlay? = nil) {
        let count = rows ?? planes.height - top
        let tapDX = taps.map { $0.dx }, tapDY = taps.map { $0.dy }, tapW = taps.map { $0.weight }
        planes.rate.withUnsafeBufferPointer { rate in
        planes.flashRatio.withUnsafeBufferPointer { ratio in
        planes.fixedPattern.withUnsafeBufferPointer { pattern in
        SmallGaussianTable.values.withUnsafeBufferPointer { gauss in
        tapDX.withUnsafeBufferPointer { dx in
        tapDY.withUnsafeBufferPointer { dy in
        tapW.withUnsafeBufferPointer { weight in
        planes.depth.withUnsafeBufferPointer { depth in
            let inputs = Inputs(width: planes.width, height: planes.height, rate: rate.baseAddress!, ratio: ratio.baseAddress!,
                                pattern: pattern.baseAddress!, gauss: gauss.baseAddress!, dx: dx.baseAddress!,
                                dy: dy.baseAddress!, weight: weight.baseAddress!, tapCount: taps.count,
                                minDX: tapDX.min() ?? 0, maxDX: tapDX.max() ?? 0)
            Parallel.forEachBandIndexed(height: count, bandHeight: 32) { band, rows in
                var rng = NoiseStream(RandomSource(seed: frameSeed, stream: UInt64(band)))
                exposeBand(rows: (rows.lowerBound + top)..<(rows.upperBound + top), inputs: inputs, colours: colours,
                           constants: constants, rng: &rng, out: out, outTop: top, pendulum: pendulum, depth: depth.baseAddress!)
            }
        }}}}}}}}
    }

    static func exposeBand(rows: Range<Int>, inputs p: Inputs, colours: [Int], constants: NoiseConstants,
                           rng: inout NoiseStream, out: UnsafeMutablePointer<UInt16>, outTop: Int = 0,
                           pendulum: PendulumOverlay? = nil, depth: UnsafePointer<Float>? = nil) {
        let w = p.width, h = p.height, flashGain = constants.flashGain
        let rowBase = UnsafeMutablePointer<Int>.allocate(capacity: max(1, p.tapCount))
        let means = UnsafeMutablePointer<Float>.allocate(capacity: w)
        defer { rowBase.deallocate(); means.deallocate() }
        // Pixels whose taps all land inside the row need no clamping.
        let interiorStart = min(w, max(0, -p.minDX))
        let interior = interiorStart..<max(interiorStart, min(w, w - p.maxDX))
        for y in rows {
            for t in 0..<p.tapCount { rowBase[t] = min(max(y + p.dy[t], 0), h - 1) * w }
            let c0 = colours[(y & 1) << 1], c1 = colours[(y & 1) << 1 | 1]
            // Mean photo-electron rate along the shake path, per pixel of this row.
            func edge(_ x: Int) {
                let c = (x & 1) == 0 ? c0 : c1
                var mean: Float = 0
                for t in 0..<p.tapCount {
                    let i = rowBase[t] + min(max(x + p.dx[t], 0), w - 1)
                    mean += p.weight[t] * p.rate[3 * i + c] * (1 + flashGain * p.ratio[i])
                }
                means[x] = mean
            }
            for x in 0..<interior.lowerBound { edge(x) }
            if !interior.isEmpty {
                pathMeanInterior(row: interior, parity: (c0, c1), taps: p.tapCount, dx: p.dx, w: p.weight,
                                 rowBase: rowBase, rate: p.rate, ratio: p.ratio, flashGain: flashGain, into: means)
            }
            for x in interior.upperBound..<w { edge(x) }
            if let pendulum, let depth { pendulum.apply(row: y, means: means, colours: (c0, c1), sceneDepth: depth, width: w) }
            exposeRow(width: w, means: means, constants: constants, gauss: p.gauss, pattern: p.pattern + 2 * y * w,
                      rng: &rng, out: out + (y - outTop) * w)
        }
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
    ///
    /// Eight pixels at a time: their eight draws are taken from the stream in pixel order and the arithmetic is done in
    /// vectors, the same operations in the same order per pixel as `exposePixel`, so the codes are the same as one
    /// pixel at a time; a pixel whose mean is below 30 e⁻ takes its exact Poisson draw in `smallPoisson`.
    @inline(__always)
    static func exposeRow(width: Int, means: UnsafePointer<Float>, constants k: NoiseConstants, gauss: UnsafePointer<Float>,
                          pattern: UnsafePointer<Int8>, rng: inout NoiseStream, out: UnsafeMutablePointer<UInt16>) {
        let prnu = k.prnu / 32, dsnu = k.dsnu / 32
        var x = 0
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 8 + 4) { memory in   // eight draws, eight Floats
            let draws = memory.baseAddress!
            let lanes = UnsafeMutableRawPointer(draws + 8).bindMemory(to: Float.self, capacity: 8)
            let magic = SIMD8<Float>(repeating: 12_582_912), zero = SIMD8<Float>(repeating: 0)
            let fullWell = SIMD8<Float>(repeating: k.fullWell), white = SIMD8<Float>(repeating: k.white)
            while x + 8 <= width {
                for i in 0..<8 { draws[i] = rng.next() }
                @inline(__always) func table(_ shift: UInt64) -> SIMD8<Float> {
                    SIMD8(gauss[Int((draws[0] >> shift) & 0xFFF)], gauss[Int((draws[1] >> shift) & 0xFFF)],
                          gauss[Int((draws[2] >> shift) & 0xFFF)], gauss[Int((draws[3] >> shift) & 0xFFF)],
                          gauss[Int((draws[4] >> shift) & 0xFFF)], gauss[Int((draws[5] >> shift) & 0xFFF)],
                          gauss[Int((draws[6] >> shift) & 0xFFF)], gauss[Int((draws[7] >> shift) & 0xFFF)])
                }
                let lambda = UnsafeRawPointer(means + x).loadUnaligned(as: SIMD8<Float>.self) * k.time + k.darkMean
                // 1–3. Shot noise and dark current, full-well clip.
                var electrons = lambda + lambda.squareRoot() * table(0)
                electrons.replace(with: (electrons + magic) - magic, where: electrons .< 4_000_000)
                let small = lambda .< 30
                if any(small) {
                    electrons.replace(with: smallPoisson(lambda, small: small, draws: draws, scratch: lanes), where: small)
                }
                electrons.replace(with: fullWell, where: fullWell .< electrons)
                // 4. PRNU and DSNU, fixed per session seed and pixel (interleaved pairs).
                let deviates = UnsafeRawPointer(pattern + 2 &* x).loadUnaligned(as: SIMD16<Int8>.self)
                let gainDeviate = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: deviates.evenHalf))
                let offsetDeviate = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: deviates.oddHalf))
                electrons = electrons * (1 + prnu * gainDeviate) + dsnu * offsetDeviate
                // 5. Read noise.
                electrons += k.read * table(16)
                // 6–7. Gain, conversion, black level, rounding, clipping.
                var code = electrons * k.dnPerElectron + k.black
                code.replace(with: zero, where: zero .>= code)
                code.replace(with: white, where: white .< code)
                let bits = unsafeBitCast(code + magic, to: SIMD8<UInt32>.self) & 0x3F_FFFF
                for i in 0..<8 { out[x &+ i] = UInt16(truncatingIfNeeded: bits[i]) }
                x += 8
            }
        }
        while x < width {
            out[x] = exposePixel(means[x], constants: k, prnu: prnu, dsnu: dsnu, gauss: gauss, gainDeviate: pattern[2 &* x],
                                 offsetDeviate: pattern[2 &* x &+ 1], bits: rng.next())
            x += 1
        }
    }

    /// Steps 1–7 for one pixel of mean electron rate `mean`, with its draw `bits`.
    @inline(__always)
    static func exposePixel(_ mean: Float, constants k: NoiseConstants, prnu: Float, dsnu: Float, gauss: UnsafePointer<Float>,
                            gainDeviate: Int8, offsetDeviate: Int8, bits: UInt64) -> UInt16 {
        let lambda = mean * k.time + k.darkMean
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
        electrons = electrons * (1 + prnu * Float(gainDeviate)) + dsnu * Float(offsetDeviate)
        // 5. Read noise.
        electrons += k.read * gauss[Int((bits >> 16) & 0xFFF)]
        // 6–7. Gain, conversion, black level, rounding, clipping.
        let code = min(max(electrons * k.dnPerElectron + k.black, 0), k.white)
        // Round to the nearest code through the float's mantissa (exact for 0 ≤ code < 2²²; no checked conversion).
        return UInt16(truncatingIfNeeded: (code + 12_582_912).bitPattern & 0x3F_FFFF)
    }

    /// `smallPoisson` for the lanes of `lambda` in `small`, their uniforms from `draws` as one pixel at a time takes
    /// them: the lanes step through the CDF together, each with the same operations as alone (0 elsewhere).
    /// `scratch` holds 8 Floats.
    @inline(__always)
    static func smallPoisson(_ lambda: SIMD8<Float>, small: SIMDMask<SIMD8<Int32>>, draws: UnsafePointer<UInt64>,
                             scratch: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        // e^−λ per lane (the scalar function, as alone), through memory once.
        for i in 0..<8 { scratch[i] = lambda[i] > 0 && lambda[i] < 30 ? exp(-lambda[i]) : 0 }
        var p = UnsafeRawPointer(scratch).loadUnaligned(as: SIMD8<Float>.self), cdf = p
        for i in 0..<8 { scratch[i] = Float(draws[i] >> 40) * (1.0 / 16_777_216.0) }
        let u = UnsafeRawPointer(scratch).loadUnaligned(as: SIMD8<Float>.self)
        let zero = SIMD8<Float>(repeating: 0)
        var k = zero, step: Float = 0
        let live = small .& (lambda .> zero)
        var active = live .& (u .> cdf)
        while any(active), step < 200 {
            step += 1
            k.replace(with: SIMD8(repeating: step), where: active)
            p.replace(with: p * (lambda / step), where: active)
            cdf.replace(with: cdf + p, where: active)
            active = active .& (u .> cdf)
        }
        return k
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
