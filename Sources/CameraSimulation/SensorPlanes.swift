import CaptureCore

/// Cached per-readout-size render for the sensor: camera-RGB photo-electron rate per pixel at base ISO
/// (optics, vignetting, lens blur and pixel area included), the flash-to-ambient ratio per candela and the depth.
final class SensorPlanes: Sendable {
    let width: Int
    let height: Int
    /// Interleaved camera R, G, B electrons per second (before PRNU).
    let rate: PlaneStorage<Float>
    /// Flash-lit over ambient radiance for a 1 cd flash at the lens.
    let flashRatio: PlaneStorage<Float>
    /// Fixed-pattern noise of this readout (from the session seed): per pixel a PRNU and a DSNU deviate
    /// in units of σ/32, interleaved (`makeFixedPattern`).
    let fixedPattern: PlaneStorage<Int8>
    /// Distance along the optical axis at each pixel centre, metres (what the defocus blur depends on).
    let depth: PlaneStorage<Float>

    init(width: Int, height: Int, rate: PlaneStorage<Float>, flashRatio: PlaneStorage<Float>, fixedPattern: PlaneStorage<Int8>,
         depth: PlaneStorage<Float>) {
        self.width = width
        self.height = height
        self.rate = rate
        self.flashRatio = flashRatio
        self.fixedPattern = fixedPattern
        self.depth = depth
    }

    convenience init(width: Int, height: Int, rate: [Float], flashRatio: [Float], fixedPattern: PlaneStorage<Int8>, depth: [Float]) {
        self.init(width: width, height: height, rate: PlaneStorage(rate), flashRatio: PlaneStorage(flashRatio),
                  fixedPattern: fixedPattern, depth: PlaneStorage(depth))
    }

    /// Standard-normal deviates per pixel from `seed`, quantised to σ/32 and clipped at ±4σ (a `GaussianTable`
    /// quantile per random number, looked up already quantised).
    static func makeFixedPattern(width: Int, height: Int, seed: UInt64) -> [Int8] {
        let count = width * height * 2
        return [Int8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = count
            guard let p = buffer.baseAddress else { return }
            LargeAllocation.adviseHugePages(p, bytes: count)
            quantisedGaussian.withUnsafeBufferPointer { table in
                let t = table.baseAddress!
                Parallel.forEachBandIndexed(height: height, bandHeight: 64) { band, rows in
                    var rng = NoiseStream(RandomSource(seed: seed, stream: UInt64(band)))
                    for i in (rows.lowerBound * width * 2)..<(rows.upperBound * width * 2) {
                        p[i] = t[Int(rng.next() >> 48)]
                    }
                }
            }
        }
    }

    /// `GaussianTable`'s 65 536 quantiles in units of σ/32, rounded and clipped to ±127.
    private static let quantisedGaussian: [Int8] = GaussianTable.values.map { Int8(max(-127, min(127, ($0 * 32).rounded()))) }
}

