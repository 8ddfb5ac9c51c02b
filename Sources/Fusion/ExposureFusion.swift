import CaptureCore
import Foundation

/// Mertens–Kautz–Van Reeth exposure fusion (Pacific Graphics 2007).
///
/// Per-pixel weights C^wc · S^ws · E^we — contrast C = |Laplacian| of the grey image, saturation S = standard
/// deviation of R, G, B, well-exposedness E = ∏ₖ exp(−(iₖ − optimum)² / (2·width²)) — are normalised across
/// frames and blended with Laplacian pyramids of the images and Gaussian pyramids of the weights
/// (Burt–Adelson), with as many levels as the size allows (as enfuse does). Input and output are
/// 8-bit sRGB-encoded RGB (3 interleaved channels); the images should already be aligned
/// (see ``ExposureAlignment``).
///
/// Memory: the normalised full-resolution weights (one Float plane per frame) and the half-resolution
/// first levels are kept; the finest Laplacian level is never stored — it is formed band by band while
/// writing the 8-bit output. Three 12 MP frames need about 0.5 GB including the inputs.
public struct ExposureFusion: Sendable {
    /// Exponent of the contrast measure (0 switches it off).
    public var contrastWeight: Double
    /// Exponent of the saturation measure (0 switches it off).
    public var saturationWeight: Double
    /// Exponent of the well-exposedness measure (0 switches it off).
    public var exposureWeight: Double
    /// Encoded value, in [0, 1], that counts as best exposed.
    public var exposureOptimum: Double
    /// Width σ of the well-exposedness Gaussian, in encoded units.
    public var exposureWidth: Double

    /// Defaults (1, 1, 1), optimum 0.5, width 0.2, as in the paper (OpenCV's `createMergeMertens(1, 1, 1)`).
    public init(contrastWeight: Double = 1, saturationWeight: Double = 1, exposureWeight: Double = 1,
                exposureOptimum: Double = 0.5, exposureWidth: Double = 0.2) {
        self.contrastWeight = contrastWeight
        self.saturationWeight = saturationWeight
        self.exposureWeight = exposureWeight
        self.exposureOptimum = exposureOptimum
        self.exposureWidth = exposureWidth
    }

    /// enfuse 4.2's defaults: contrast 0, saturation 0.2, exposure 1 (optimum 0.5, width 0.2).
    public static let enfuseDefaults = ExposureFusion(contrastWeight: 0, saturationWeight: 0.2, exposureWeight: 1)

    /// Fuses aligned, equally sized 8-bit RGB frames into one. `progress` receives the name of each stage.
    /// Throws ``FusionError`` for an empty array, mismatched sizes, non-RGB input or bad parameters.
    public func fuse(_ images: [Raster<UInt8>], progress: ((String) -> Void)? = nil) throws -> Raster<UInt8> {
        try FusionError.validate(images, channels: 3)
        for (name, value) in [("contrastWeight", contrastWeight), ("saturationWeight", saturationWeight),
                              ("exposureWeight", exposureWeight)] where !(value >= 0 && value.isFinite) {
            throw FusionError.invalidParameter("\(name) = \(value) (must be finite and ≥ 0)")
        }
        guard exposureWidth > 0, exposureWidth.isFinite, exposureOptimum.isFinite else {
            throw FusionError.invalidParameter("exposureWidth = \(exposureWidth), exposureOptimum = \(exposureOptimum)")
        }
        let width = images[0].width, height = images[0].height
        if images.count == 1 || width == 0 || height == 0 { return images[0] }

        progress?("weights")
        let weights = computeWeights(images)

        // Level sizes: reduce while the smaller side stays above 8 pixels.
        var sizes = [(width, height)]
        while min(sizes.last!.0, sizes.last!.1) > 8 {
            sizes.append(((sizes.last!.0 + 1) / 2, (sizes.last!.1 + 1) / 2))
        }
        if sizes.count == 1 { return Self.blendWithoutPyramid(images, weights: weights) }

        // Levels 1…top of the blended Laplacian pyramid, one frame's pyramid at a time.
        progress?("pyramids")
        let output: [[FloatPlane]] = sizes.dropFirst().map { size in
            (0..<3).map { _ in FloatPlane(width: size.0, height: size.1, zeroed: true) }
        }
        var firstLevels: [[FloatPlane]] = []
        for (k, image) in images.enumerated() {
            var g = Pyramid.reduce(rgb: image)
            var wg = Pyramid.reduce(weights[k])
            firstLevels.append(g)
            for level in 1..<sizes.count {
                let target = output[level - 1]
                if level == sizes.count - 1 {
                    Self.accumulateTop(into: target, image: g, weight: wg)
                } else {
                    let next = g.map { Pyramid.reduce($0) }
                    Self.accumulate(into: target, image: g, next: next, weight: wg)
                    wg = Pyramid.reduce(wg)
                    g = next
                }
            }
        }

        progress?("collapse")
        for level in stride(from: output.count - 2, through: 0, by: -1) {
            Self.addExpanded(output[level + 1], to: output[level])
        }

        progress?("finest level")
        return Self.finish(images, weights: weights, firstLevels: firstLevels, residual: output[0])
    }

    // MARK: - Weights

    /// Normalised weight planes, computed band by band for all frames at once. Each step is a separate
    /// row loop (deinterleave, grey, exposure, saturation, contrast, normalise) so the compiler can vectorise it.
    func computeWeights(_ images: [Raster<UInt8>]) -> [FloatPlane] {
        let w = images[0].width, h = images[0].height, n = images.count
        let planes = (0..<n).map { _ in FloatPlane(width: w, height: h) }
        let sigma = exposureWidth, optimum = exposureOptimum, we = exposureWeight
        let exposureTable: [Float] = (0..<256).map { v in
            let d = Double(v) / 255 - optimum
            return Float(pow(exp(-d * d / (2 * sigma * sigma)), we))
        }
        let wc = Float(contrastWeight), ws = Float(saturationWeight)
        let useExposure = exposureWeight != 0
        let kr: Float = 0.299 / 255, kg: Float = 0.587 / 255, kb: Float = 0.114 / 255
        let epsilon: Float = 1e-12

        let buffers = images.map { $0.storage }
        withUnsafeBufferPointers(buffers) { sources in
        exposureTable.withUnsafeBufferPointer { table in
            let et = table.baseAddress!
            Parallel.forEachBand(height: h, bandHeight: Pyramid.bandRows(width: w)) { rows in
                let lo = rows.lowerBound, hi = rows.upperBound
                let greyBand = UnsafeMutablePointer<Float>.allocate(capacity: (rows.count + 2) * w)
                let rgb = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                defer { greyBand.deallocate(); rgb.deallocate() }
                let r = rgb, g = rgb + w, b = rgb + 2 * w
                for k in 0..<n {
                    let src = sources[k]
                    // Grey for the band and one halo row each side; colour weights for the band rows.
                    for yy in (lo - 1)..<(hi + 1) {
                        let y = reflect101(yy, h)
                        let p = src + y * 3 * w
                        for x in 0..<w { r[x] = Float(p[3 * x]); g[x] = Float(p[3 * x + 1]); b[x] = Float(p[3 * x + 2]) }
                        let grey = greyBand + (yy - lo + 1) * w
                        for x in 0..<w { grey[x] = kr * r[x] + kg * g[x] + kb * b[x] }
                        guard yy >= lo && yy < hi else { continue }
                        let out = planes[k].row(y)
                        if useExposure {
                            for x in 0..<w { out[x] = et[Int(p[3 * x])] * et[Int(p[3 * x + 1])] * et[Int(p[3 * x + 2])] }
                        } else {
                            out.update(repeating: 1, count: w)
                        }
                        if ws != 0 {
                            let third: Float = 1.0 / 3, norm: Float = 1.0 / (3 * 255 * 255)
                            if ws == 1 {
                                for x in 0..<w {
                                    let mean = (r[x] + g[x] + b[x]) * third
                                    let dr = r[x] - mean, dg = g[x] - mean, db = b[x] - mean
                                    out[x] *= vectorisableSquareRoot((dr * dr + dg * dg + db * db) * norm)
                                }
                            } else {
                                let half = 0.5 * ws
                                for x in 0..<w {
                                    let mean = (r[x] + g[x] + b[x]) * third
                                    let dr = r[x] - mean, dg = g[x] - mean, db = b[x] - mean
                                    out[x] *= powf((dr * dr + dg * dg + db * db) * norm, half)
                                }
                            }
                        }
                    }
                    // Contrast: |4-neighbour Laplacian| of grey (mirrored at the image edges).
                    if wc != 0 {
                        for y in rows {
                            let up = greyBand + (y - lo) * w, mid = up + w, down = mid + w
                            let c = rgb  // scratch
                            if w == 1 {
                                c[0] = abs(up[0] + down[0] - 2 * mid[0])
                            } else {
                                c[0] = abs(up[0] + down[0] + 2 * mid[1] - 4 * mid[0])
                                c[w - 1] = abs(up[w - 1] + down[w - 1] + 2 * mid[w - 2] - 4 * mid[w - 1])
                                for x in 1..<max(1, w - 1) {
                                    c[x] = abs(up[x] + down[x] + mid[x - 1] + mid[x + 1] - 4 * mid[x])
                                }
                            }
                            let out = planes[k].row(y)
                            if wc == 1 {
                                for x in 0..<w { out[x] *= c[x] }
                            } else {
                                for x in 0..<w { out[x] *= powf(c[x], wc) }
                            }
                        }
                    }
                }
                // Normalise across frames: (wₖ + ε) / Σ (wᵢ + ε).
                let sum = rgb
                for y in rows {
                    sum.update(repeating: Float(n) * epsilon, count: w)
                    for k in 0..<n {
                        let o = planes[k].row(y)
                        for x in 0..<w { sum[x] += o[x] }
                    }
                    for x in 0..<w { sum[x] = 1 / sum[x] }
                    for k in 0..<n {
                        let o = planes[k].row(y)
                        for x in 0..<w { o[x] = (o[x] + epsilon) * sum[x] }
                    }
                }
            }
        }
        }
        return planes
    }

    // MARK: - Pyramid blending

    /// target += weight · (image − expand(next)), per channel, for one level.
    static func accumulate(into target: [FloatPlane], image: [FloatPlane], next: [FloatPlane], weight: FloatPlane) {
        let w = target[0].width, h = target[0].height
        Parallel.forEachBand(height: h, bandHeight: Pyramid.bandRows(width: w)) { rows in
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: next[0].width)
            let expanded = UnsafeMutablePointer<Float>.allocate(capacity: w)
            defer { scratch.deallocate(); expanded.deallocate() }
            for y in rows {
                let wr = weight.row(y)
                for c in 0..<3 {
                    Pyramid.expandRow(next[c], y: y, width: w, scratch: scratch, into: expanded)
                    let o = target[c].row(y), g = image[c].row(y)
                    for x in 0..<w { o[x] += wr[x] * (g[x] - expanded[x]) }
                }
            }
        }
    }

    /// target += weight · image at the top (coarsest) level.
    static func accumulateTop(into target: [FloatPlane], image: [FloatPlane], weight: FloatPlane) {
        let w = target[0].width, h = target[0].height
        for c in 0..<3 {
            let o = target[c].base, g = image[c].base, wr = weight.base
            for i in 0..<(w * h) { o[i] += wr[i] * g[i] }
        }
    }

    /// fine += expand(coarse), per channel (one step of collapsing the pyramid).
    static func addExpanded(_ coarse: [FloatPlane], to fine: [FloatPlane]) {
        let w = fine[0].width, h = fine[0].height
        Parallel.forEachBand(height: h, bandHeight: Pyramid.bandRows(width: w)) { rows in
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: coarse[0].width)
            let expanded = UnsafeMutablePointer<Float>.allocate(capacity: w)
            defer { scratch.deallocate(); expanded.deallocate() }
            for y in rows {
                for c in 0..<3 {
                    Pyramid.expandRow(coarse[c], y: y, width: w, scratch: scratch, into: expanded)
                    let o = fine[c].row(y)
                    for x in 0..<w { o[x] += expanded[x] }
                }
            }
        }
    }

    /// The finest level, formed band by band and written straight to 8 bits:
    /// out = expand(residual) + Σₖ Wₖ · (Iₖ − expand(G1ₖ)).
    static func finish(_ images: [Raster<UInt8>], weights: [FloatPlane], firstLevels: [[FloatPlane]],
                       residual: [FloatPlane]) -> Raster<UInt8> {
        let w = images[0].width, h = images[0].height
        var result = Raster<UInt8>(width: w, height: h, channels: 3)
        let buffers = images.map { $0.storage }
        result.storage.withUnsafeMutableBufferPointer { dst in
            let d = dst.baseAddress!
            withUnsafeBufferPointers(buffers) { sources in
                Parallel.forEachBand(height: h, bandHeight: Pyramid.bandRows(width: w)) { rows in
                    let scratch = UnsafeMutablePointer<Float>.allocate(capacity: residual[0].width)
                    let acc = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                    let pixels = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                    let expanded = UnsafeMutablePointer<Float>.allocate(capacity: w)
                    defer { scratch.deallocate(); acc.deallocate(); pixels.deallocate(); expanded.deallocate() }
                    for y in rows {
                        for c in 0..<3 {
                            Pyramid.expandRow(residual[c], y: y, width: w, scratch: scratch, into: acc + c * w)
                        }
                        for (k, src) in sources.enumerated() {
                            let p = src + y * 3 * w, wr = weights[k].row(y)
                            let r = pixels, g = pixels + w, b = pixels + 2 * w
                            let scale: Float = 1.0 / 255
                            for x in 0..<w {
                                r[x] = Float(p[3 * x]) * scale; g[x] = Float(p[3 * x + 1]) * scale; b[x] = Float(p[3 * x + 2]) * scale
                            }
                            for c in 0..<3 {
                                Pyramid.expandRow(firstLevels[k][c], y: y, width: w, scratch: scratch, into: expanded)
                                let a = acc + c * w, v = pixels + c * w
                                for x in 0..<w { a[x] += wr[x] * (v[x] - expanded[x]) }
                            }
                        }
                        let out = d + y * 3 * w
                        let r = acc, g = acc + w, b = acc + 2 * w
                        // Round to 8 bits by adding 2²³ (the integer lands in the low mantissa bits): no
                        // trapping conversion, so the loop vectorises.
                        let magic: Float = 8_388_608
                        for x in 0..<w {
                            out[3 * x] = UInt8(truncatingIfNeeded: (min(max(r[x] * 255, 0), 255) + magic).bitPattern)
                            out[3 * x + 1] = UInt8(truncatingIfNeeded: (min(max(g[x] * 255, 0), 255) + magic).bitPattern)
                            out[3 * x + 2] = UInt8(truncatingIfNeeded: (min(max(b[x] * 255, 0), 255) + magic).bitPattern)
                        }
                    }
                }
            }
        }
        return result
    }

    /// Images too small for a pyramid: the per-pixel weighted average.
    static func blendWithoutPyramid(_ images: [Raster<UInt8>], weights: [FloatPlane]) -> Raster<UInt8> {
        let w = images[0].width, h = images[0].height
        var result = Raster<UInt8>(width: w, height: h, channels: 3)
        for i in 0..<(w * h) {
            for c in 0..<3 {
                var v: Float = 0
                for k in images.indices { v += weights[k].base[i] * Float(images[k].storage[3 * i + c]) }
                result.storage[3 * i + c] = UInt8(min(max(v + 0.5, 0), 255))
            }
        }
        return result
    }
}

/// √v for v ≥ 0 to about 1e-6 relative (bit-trick start, two Newton steps) in plain arithmetic, so loops
/// using it vectorise; `Float.squareRoot()` becomes a scalar `sqrtf` call with an errno path on Linux.
@inline(__always)
func vectorisableSquareRoot(_ v: Float) -> Float {
    var y = Float(bitPattern: (v.bitPattern >> 1) &+ 0x1FBD_1DF5)
    y = 0.5 * (y + v / y)
    y = 0.5 * (y + v / y)
    return y
}

/// Calls `body` with base pointers of every array in `arrays` (kept alive for the call).
func withUnsafeBufferPointers<T, R>(_ arrays: [[T]], _ body: ([UnsafePointer<T>]) -> R) -> R {
    func step(_ index: Int, _ collected: [UnsafePointer<T>]) -> R {
        if index == arrays.count { return body(collected) }
        return arrays[index].withUnsafeBufferPointer { step(index + 1, collected + [$0.baseAddress!]) }
    }
    return step(0, [])
}
