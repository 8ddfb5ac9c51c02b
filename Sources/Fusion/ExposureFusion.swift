import CaptureCore
import Foundation

/// Mertens–Kautz–Van Reeth exposure fusion (Pacific Graphics 2007).
///
/// Per-pixel weights C^wc · S^ws · E^we — contrast C = |Laplacian| of the grey image, saturation S = standard
/// deviation of R, G, B, well-exposedness E = ∏ₖ exp(−(iₖ − optimum)² / (2·width²)) (or of the grey level,
/// `measuresExposureOnGrey`), or, with `addsMeasures`, enfuse's sum wc·C + ws·S + we·E — are normalised across
/// frames and blended with Laplacian pyramids of the images and Gaussian pyramids of the weights
/// (Burt–Adelson), with as many levels as the size allows (as enfuse does). Input and output are
/// 8-bit sRGB-encoded RGB (3 interleaved channels); the images should already be aligned
/// (see ``ExposureAlignment``).
///
/// Memory: no full-resolution Float plane is kept. The weights are reduced to the first pyramid level band
/// by band, one frame's Gaussian pyramid is held at a time, and the finest Laplacian level is formed band
/// by band (weights and first-level rows computed again there) while writing the 8-bit output. Three
/// 12 MP frames need the 8-bit inputs and output (144 MB) plus about 130 MB of half-resolution planes.
public struct ExposureFusion: Sendable {
    /// Exponent of the contrast measure (its coefficient with `addsMeasures`; 0 switches it off).
    public var contrastWeight: Double
    /// Exponent of the saturation measure (its coefficient with `addsMeasures`; 0 switches it off).
    public var saturationWeight: Double
    /// Exponent of the well-exposedness measure (its coefficient with `addsMeasures`; 0 switches it off).
    public var exposureWeight: Double
    /// Encoded value, in [0, 1], that counts as best exposed.
    public var exposureOptimum: Double
    /// Width σ of the well-exposedness Gaussian, in encoded units.
    public var exposureWidth: Double
    /// Well-exposedness of the pixel's grey level (mean of R, G, B: enfuse's default "average" gray
    /// projector) instead of the product over the channels (the paper's and OpenCV's).
    public var measuresExposureOnGrey = false
    /// Adds the weighted measures, we·E + ws·S + wc·C, with S the HSL saturation (max − min) / (1 − |max + min − 1|),
    /// as enfuse 4.2 does (the masks it saves with `--save-masks` are that sum), instead of the paper's product
    /// C^wc · S^ws · E^we with S the channels' standard deviation. A sum lets a neutral, well-exposed pixel count
    /// (the product gives it none: S = 0), so a bright, nearly grey sky is not left to the frames that clipped it.
    /// The contrast measure stays |Laplacian| (enfuse's is a local standard deviation), so with a contrast weight the
    /// sum is not on enfuse's scale; its defaults use none.
    public var addsMeasures = false

    /// Defaults (1, 1, 1), optimum 0.5, width 0.2, as in the paper (OpenCV's `createMergeMertens(1, 1, 1)`).
    public init(contrastWeight: Double = 1, saturationWeight: Double = 1, exposureWeight: Double = 1,
                exposureOptimum: Double = 0.5, exposureWidth: Double = 0.2) {
        self.contrastWeight = contrastWeight
        self.saturationWeight = saturationWeight
        self.exposureWeight = exposureWeight
        self.exposureOptimum = exposureOptimum
        self.exposureWidth = exposureWidth
    }

    /// enfuse 4.2's defaults: contrast 0, saturation 0.2, exposure 1 (optimum 0.5, width 0.2) of the
    /// grey level (its "average" gray projector), the measures added.
    public static let enfuseDefaults: ExposureFusion = {
        var fusion = ExposureFusion(contrastWeight: 0, saturationWeight: 0.2, exposureWeight: 1)
        fusion.measuresExposureOnGrey = true
        fusion.addsMeasures = true
        return fusion
    }()

    /// Fuses aligned, equally sized 8-bit RGB frames into one. `progress` receives the name of each stage.
    /// Throws ``FusionError`` for an empty array, mismatched sizes, non-RGB input or bad parameters.
    public func fuse(_ images: [Raster<UInt8>], progress: ((String) -> Void)? = nil) throws -> Raster<UInt8> {
        try fuse(images, consistency: nil, progress: progress)
    }

    /// Fuses aligned frames as ``fuse(_:progress:)`` does, but first rejects, tile by tile, content of the
    /// other frames that disagrees with frame `reference` once exposure is normalised (something that moved),
    /// so a moving object appears once, where the reference saw it (``GhostDetector``: the rejected content
    /// is replaced by the reference's and weighted down). Frames it changes are copied; callers that own
    /// their frames can save that memory by calling ``GhostDetector`` and ``fuse(_:consistency:progress:)``.
    public func fuse(_ images: [Raster<UInt8>], deghostingAgainst reference: Int,
                     progress: ((String) -> Void)? = nil) throws -> Raster<UInt8> {
        try FusionError.validate(images, channels: 3)
        guard images.indices.contains(reference) else { throw FusionError.referenceOutOfRange(reference) }
        progress?("ghost detection")
        let detector = GhostDetector()
        let consistency = detector.consistency(images, reference: reference)
        var frames = images
        detector.fill(&frames, reference: reference, weights: consistency)
        return try fuse(frames, consistency: consistency, progress: progress)
    }

    /// Fuses aligned frames with each frame's weights scaled, before they are normalised, by
    /// `consistency[k]` (nil: unscaled), e.g. ``GhostDetector`` weights; nil fuses plainly.
    public func fuse(_ images: [Raster<UInt8>], consistency: [TileGrid?]?,
                     progress: ((String) -> Void)? = nil) throws -> Raster<UInt8> {
        try FusionError.validate(images, channels: 3)
        if let consistency, consistency.count != images.count {
            throw FusionError.invalidParameter("\(consistency.count) consistency maps for \(images.count) images")
        }
        for (name, value) in [("contrastWeight", contrastWeight), ("saturationWeight", saturationWeight),
                              ("exposureWeight", exposureWeight)] where !(value >= 0 && value.isFinite) {
            throw FusionError.invalidParameter("\(name) = \(value) (must be finite and ≥ 0)")
        }
        guard exposureWidth > 0, exposureWidth.isFinite, exposureOptimum.isFinite else {
            throw FusionError.invalidParameter("exposureWidth = \(exposureWidth), exposureOptimum = \(exposureOptimum)")
        }
        let width = images[0].width, height = images[0].height
        if images.count == 1 || width == 0 || height == 0 { return images[0] }

        // Level sizes: reduce while the smaller side stays above 8 pixels.
        var sizes = [(width, height)]
        while let last = sizes.last, min(last.0, last.1) > 8 {
            sizes.append(((last.0 + 1) / 2, (last.1 + 1) / 2))
        }
        let buffers = images.map { $0.storage }
        return withUnsafeBufferPointers(buffers) { sources in
            let weights = WeightRows(self, sources: sources, width: width, height: height, consistency: consistency)
            if sizes.count == 1 { return Self.blendWithoutPyramid(images, weights: weights) }

            // Level-1 weights, reduced band by band from full-resolution weights that are never stored whole.
            progress?("weights")
            var levelOneWeights: [FloatPlane]? = weights.reducedOnce()

            // Levels 1…top of the blended Laplacian pyramid, one frame's pyramid at a time.
            progress?("pyramids")
            let output: [[FloatPlane]] = sizes.dropFirst().map { size in
                (0..<3).map { _ in FloatPlane(width: size.0, height: size.1, zeroed: true) }
            }
            for (k, image) in images.enumerated() {
                var g = Pyramid.reduce(rgb: image)
                guard var wg = levelOneWeights?[k] else { break }
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
            levelOneWeights = nil

            progress?("collapse")
            for level in stride(from: output.count - 2, through: 0, by: -1) {
                Self.addExpanded(output[level + 1], to: output[level])
            }

            progress?("finest level")
            return Self.finish(sources, width: width, height: height, weights: weights, residual: output[0])
        }
    }

    // MARK: - Weights

    /// Normalised weight planes at full resolution (all frames; tests and small images).
    func computeWeights(_ images: [Raster<UInt8>]) -> [FloatPlane] {
        let w = images[0].width, h = images[0].height
        let planes = (0..<images.count).map { _ in FloatPlane(width: w, height: h) }
        withUnsafeBufferPointers(images.map { $0.storage }) { sources in
            let weights = WeightRows(self, sources: sources, width: w, height: h, consistency: nil)
            Parallel.forEachBand(height: h, bandHeight: Pyramid.bandRows(width: w)) { rows in
                var scratch = weights.makeScratch(rows: rows.count)
                defer { scratch.deallocate() }
                weights.compute(rows: rows, into: planes.map { $0.row(rows.lowerBound) }, scratch: &scratch)
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
    /// out = expand(residual) + Σₖ Wₖ · (Iₖ − expand(G1ₖ)), with the weights Wₖ and the rows of G1ₖ
    /// that the band needs computed again here rather than kept from the pyramid pass.
    static func finish(_ sources: [UnsafePointer<UInt8>], width w: Int, height h: Int, weights: WeightRows,
                       residual: [FloatPlane]) -> Raster<UInt8> {
        var result = Raster<UInt8>(width: w, height: h, channels: 3)
        let n = sources.count, ow = (w + 1) / 2, oh = (h + 1) / 2
        result.storage.withUnsafeMutableBufferPointer { dst in
            let d = dst.baseAddress!
            Parallel.forEachBand(height: h, bandHeight: 32) { rows in
                // Level-1 rows that expanding rows `rows` reads (mirrored indices stay inside this run).
                let g0 = max(0, (rows.lowerBound >> 1) - 1), g1 = min(oh - 1, ((rows.upperBound - 1) >> 1) + 1)
                let gRows = g1 - g0 + 1
                var scratch = weights.makeScratch(rows: rows.count)
                let weightBand = (0..<n).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: rows.count * w) }
                let levelOne = UnsafeMutablePointer<Float>.allocate(capacity: n * 3 * gRows * ow)
                let scratchRow = UnsafeMutablePointer<Float>.allocate(capacity: max(ow, residual[0].width))
                let t = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                let acc = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                let pixels = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                let expanded = UnsafeMutablePointer<Float>.allocate(capacity: w)
                defer {
                    scratch.deallocate(); weightBand.forEach { $0.deallocate() }; levelOne.deallocate()
                    scratchRow.deallocate(); t.deallocate(); acc.deallocate(); pixels.deallocate(); expanded.deallocate()
                }
                weights.compute(rows: rows, into: weightBand, scratch: &scratch)
                // Plane c of frame k, level-1 row r (g0 ≤ r ≤ g1).
                @inline(__always) func levelOneRow(_ k: Int, _ c: Int, _ r: Int) -> UnsafeMutablePointer<Float> {
                    levelOne + ((k * 3 + c) * gRows + (r - g0)) * ow
                }
                for k in 0..<n {
                    for r in g0...g1 {
                        Pyramid.reduceRGBRow(sources[k], width: w, height: h, row: r,
                                             into: (levelOneRow(k, 0, r), levelOneRow(k, 1, r), levelOneRow(k, 2, r)),
                                             scratch: t, planes: pixels)
                    }
                }
                for y in rows {
                    for c in 0..<3 {
                        Pyramid.expandRow(residual[c], y: y, width: w, scratch: scratchRow, into: acc + c * w)
                    }
                    for k in 0..<n {
                        let p = sources[k] + y * 3 * w, wr = weightBand[k] + (y - rows.lowerBound) * w
                        let r = pixels, g = pixels + w, b = pixels + 2 * w
                        let scale: Float = 1.0 / 255
                        for x in 0..<w {
                            r[x] = Float(p[3 * x]) * scale; g[x] = Float(p[3 * x + 1]) * scale; b[x] = Float(p[3 * x + 2]) * scale
                        }
                        for c in 0..<3 {
                            Pyramid.expandRow(rowAt: { levelOneRow(k, c, $0) }, width: ow, height: oh, y: y, outWidth: w,
                                              scratch: scratchRow, into: expanded)
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
        return result
    }

    /// Images too small for a pyramid: the per-pixel weighted average.
    static func blendWithoutPyramid(_ images: [Raster<UInt8>], weights: WeightRows) -> Raster<UInt8> {
        let w = images[0].width, h = images[0].height
        var result = Raster<UInt8>(width: w, height: h, channels: 3)
        var scratch = weights.makeScratch(rows: h)
        let planes = images.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: w * h) }
        defer { scratch.deallocate(); planes.forEach { $0.deallocate() } }
        weights.compute(rows: 0..<h, into: planes, scratch: &scratch)
        for i in 0..<(w * h) {
            for c in 0..<3 {
                var v: Float = 0
                for k in images.indices { v += planes[k][i] * Float(images[k].storage[3 * i + c]) }
                result.storage[3 * i + c] = UInt8(min(max(v + 0.5, 0), 255))
            }
        }
        return result
    }
}

/// Calls `body` with base pointers of every array in `arrays` (kept alive for the call).
func withUnsafeBufferPointers<T, R>(_ arrays: [[T]], _ body: ([UnsafePointer<T>]) -> R) -> R {
    func step(_ index: Int, _ collected: [UnsafePointer<T>]) -> R {
        if index == arrays.count { return body(collected) }
        return arrays[index].withUnsafeBufferPointer { step(index + 1, collected + [$0.baseAddress!]) }
    }
    return step(0, [])
}
