import CaptureCore

/// True HDR merge to scene-linear radiance from frames of known relative exposure: a Debevec–Malik-style
/// weighted average of linearised pixel values divided by exposure, per channel.
///
/// - 8-bit inputs: the response is taken to be the sRGB curve (values are linearised with its inverse);
///   weights are a hat over the encoded value that is zero for near-black (≤ 4) and clipped (≥ 251) values.
/// - Linear Float inputs: the response is the identity; weights are proportional to exposure (the
///   photon-noise optimum) and taper to zero between 90 % and 98 % of `saturation`.
///
/// Linear frames: a frame's weight for a pixel is the least of its channels' (all channels of a pixel mix the frames
/// alike, so an imperfect response cannot turn into colour blotches near clipping). Where every frame is clipped the
/// shortest exposure's value is used (a lower bound); where every frame is near-black the longest exposure's value is
/// used. Given the frames' consistency with a reference, the weight a frame loses where it disagrees goes to the
/// reference's own value, so what moved never returns where the reference alone is clipped. Output has the input's
/// channel count (RGB in, RGB out), in the units of 1/exposure.
public struct HDRMerge: Sendable {
    public init() {}

    /// Merges 8-bit sRGB-encoded frames. `exposures[i]` is the relative exposure of image i
    /// (duration × ISO or any common unit).
    public func merge(_ images: [Raster<UInt8>], exposures: [Double]) throws -> Raster<Float> {
        try Self.validate(images, exposures: exposures)
        let w = images[0].width, h = images[0].height, ch = images[0].channels, n = images.count
        let weight: [Float] = (0..<256).map { z in z <= 4 || z >= 251 ? 0 : Float(min(z, 255 - z)) / 127.5 }
        // Per frame: weight × linear / exposure, and weight, for every code value (one table look-up each).
        var tables = [Float](repeating: 0, count: n * 512)
        for k in 0..<n {
            for z in 0..<256 {
                tables[k * 512 + z] = weight[z] * SRGBTransfer.decodeTable8[z] / Float(exposures[k])
                tables[k * 512 + 256 + z] = weight[z]
            }
        }
        let shortest = exposures.indices.min { exposures[$0] < exposures[$1] }!
        let longest = exposures.indices.max { exposures[$0] < exposures[$1] }!
        let inverseShortest = Float(1 / exposures[shortest]), inverseLongest = Float(1 / exposures[longest])
        var out = Raster<Float>(width: w, height: h, channels: ch)
        let buffers = images.map { $0.storage }
        out.storage.withUnsafeMutableBufferPointer { dst in
            tables.withUnsafeBufferPointer { t in
                let d = dst.baseAddress!, table = t.baseAddress!, linear = SRGBTransfer.decodeTable8
                withUnsafeBufferPointers(buffers) { sources in
                    Parallel.forEachBand(height: h, bandHeight: 16) { rows in
                        let range = (rows.lowerBound * w * ch)..<(rows.upperBound * w * ch)
                        let sums = UnsafeMutablePointer<Float>.allocate(capacity: 2 * range.count)
                        defer { sums.deallocate() }
                        let num = sums, den = sums + range.count
                        num.update(repeating: 0, count: range.count)
                        den.update(repeating: 0, count: range.count)
                        for k in 0..<n {
                            let src = sources[k] + range.lowerBound, tk = table + k * 512
                            for i in 0..<range.count {
                                let z = Int(src[i])
                                num[i] += tk[z]
                                den[i] += tk[256 + z]
                            }
                        }
                        for i in 0..<range.count {
                            if den[i] > 0 {
                                d[range.lowerBound + i] = num[i] / den[i]
                            } else {
                                // Clipped everywhere → the shortest exposure (a lower bound); black everywhere → the longest.
                                let zs = sources[shortest][range.lowerBound + i]
                                d[range.lowerBound + i] = zs >= 128 ? linear[Int(zs)] * inverseShortest
                                    : linear[Int(sources[longest][range.lowerBound + i])] * inverseLongest
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Merges scene-linear frames (identity response) whose clipping level is `saturation`. `consistency[k]`, e.g.
    /// ``GhostDetector`` weights, scales frame k's weights: where something moved, the radiance comes from the frames
    /// that agree with the reference, as the deghosted fusion's pixels do. The reference is the frame whose grid is nil
    /// (the first such, as `GhostDetector` gives nil to the reference only); the weight others lose goes to its value.
    public func merge(linear images: [Raster<Float>], exposures: [Double], saturation: Float = 1,
                      consistency: [TileGrid?]? = nil) throws -> Raster<Float> {
        try Self.validate(images, exposures: exposures)
        guard saturation > 0, saturation.isFinite else {
            throw FusionError.invalidParameter("saturation = \(saturation) (must be finite and > 0)")
        }
        if let consistency, consistency.count != images.count {
            throw FusionError.invalidParameter("\(consistency.count) consistency grids for \(images.count) frames")
        }
        let knee = 0.9 * saturation, stop = 0.98 * saturation
        return Self.combine(images, exposures: exposures, consistency: consistency) { (v: Float) -> (Float, Float) in
            guard v.isFinite else { return (0, 0) }
            let w: Float = v <= knee ? 1 : v >= stop ? 0 : (stop - v) / (stop - knee)
            return (max(v, 0), w)
        } clipped: { $0 >= 0.5 * saturation }
    }

    /// The radiance from which a merged pixel had only clipped frames: where the shortest exposure reaches 95 % of
    /// `saturation` (linear frames: within the weights' taper; 8-bit sRGB frames, saturation 1: code 250). What a
    /// tone mapper should leave white (`ToneMapper.render(_:saturation:)`). Nil for no exposures.
    public static func clipLevel(exposures: [Double], saturation: Float = 1) -> Float? {
        guard let shortest = exposures.filter({ $0 > 0 && $0.isFinite }).min() else { return nil }
        return 0.95 * saturation / Float(shortest)
    }

    static func validate<T>(_ images: [Raster<T>], exposures: [Double]) throws {
        try FusionError.validate(images)
        guard exposures.count == images.count else { throw FusionError.exposureCountMismatch }
        for e in exposures where !(e > 0 && e.isFinite) { throw FusionError.invalidExposure(e) }
    }

    /// Σ wᵢ·vᵢ/eᵢ / Σ wᵢ per sample, with `sample` giving (linear value, base weight) and linear inputs' weights
    /// scaled by exposure. `clipped` decides the fallback when no frame has weight.
    static func combine<T>(_ images: [Raster<T>], exposures: [Double], consistency: [TileGrid?]? = nil,
                           sample: (T) -> (Float, Float), clipped: (T) -> Bool) -> Raster<Float> {
        let w = images[0].width, h = images[0].height, ch = images[0].channels, n = images.count
        let exposureScaled = T.self == Float.self
        let inverse = exposures.map { Float(1 / $0) }
        let weightScale = exposures.map { exposureScaled ? Float($0 / exposures.max()!) : 1 }
        let shortest = exposures.indices.min { exposures[$0] < exposures[$1] }!
        let longest = exposures.indices.max { exposures[$0] < exposures[$1] }!
        // The frame the others were checked against (the one without a consistency grid).
        let anchor: Int? = consistency.flatMap { grids in grids.indices.first { grids[$0] == nil } }
        var out = Raster<Float>(width: w, height: h, channels: ch)
        let buffers = images.map { $0.storage }
        out.storage.withUnsafeMutableBufferPointer { dst in
            let d = dst.baseAddress!
            withUnsafeBufferPointers(buffers) { sources in
                Parallel.forEachBand(height: h) { rows in
                    // Per frame, its consistency along the current row (1 where it has none).
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: n * w) { scratch in
                        let agree = scratch.baseAddress!
                        agree.initialize(repeating: 1, count: n * w)
                        for y in rows {
                            if let consistency {
                                for k in 0..<n { consistency[k]?.fillRow(y, width: w, into: agree + k * w) }
                            }
                            // One weight per frame and pixel, the least of its channels' (a frame counts for a pixel
                            // only as far as all its channels are well exposed), so every channel of a pixel mixes the
                            // frames alike: per channel, a colour near clipping took its channels from different
                            // frames, and any error in the frames' response became a colour blotch.
                            for x in 0..<w {
                                let pixel = y * w + x, first = pixel * ch
                                var sums = SIMD4<Float>(), weights: Float = 0, rejected: Float = 0
                                for k in 0..<n {
                                    var weight = Float.greatestFiniteMagnitude, values = SIMD4<Float>()
                                    for c in 0..<min(ch, 4) {
                                        let (v, wt) = sample(sources[k][first + c])
                                        values[c] = v
                                        weight = min(weight, wt)
                                    }
                                    weight *= weightScale[k]
                                    let agreement: Float = min(max(agree[k * w + x], 0), 1)
                                    let kept: Float = weight * agreement
                                    sums += (kept * inverse[k]) * values
                                    weights += kept
                                    rejected += weight - kept
                                }
                                // The weight a frame loses where it disagrees goes to the reference's own value (a lower
                                // bound where it is clipped): a frame that alone is well exposed where the reference is
                                // blown cannot bring back what moved, whatever share of its weight is left.
                                if let anchor, rejected > 0 {
                                    var values = SIMD4<Float>()
                                    for c in 0..<min(ch, 4) { values[c] = sample(sources[anchor][first + c]).0 }
                                    sums += (rejected * inverse[anchor]) * values
                                    weights += rejected
                                }
                                for c in 0..<ch {
                                    let i = first + c
                                    if weights > 0, c < 4 {
                                        d[i] = sums[c] / weights
                                    } else {
                                        let k = clipped(sources[shortest][i]) ? shortest : longest
                                        d[i] = sample(sources[k][i]).0 * inverse[k]
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
