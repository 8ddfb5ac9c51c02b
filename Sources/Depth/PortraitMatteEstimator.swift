import CaptureCore
import Foundation

/// A portrait effects matte (Apple's `AVPortraitEffectsMatte`: 1 = person, 0 = background) estimated from a photo
/// and its depth, without any knowledge of the scene.
///
/// Steps: the depth (disparity or depth, absolute or relative, any size, NaN holes) becomes "nearness" (disparity),
/// holes filled from their farther side; it is upsampled bilinearly to the photo's pixel grid. The subject's depth
/// layer is the band of nearness around the subject point bounded by the first empty gaps of the local histogram
/// on either side (the gap's width must exceed a few times the measured depth noise). The connected part of that
/// band at the subject point, opened (no thin edge lines) and with its holes filled, is the coarse matte; it is kept only when most of its outline
/// borders something farther (a subject standing in front of a background, not a wall with a window in it) and it
/// holds at most half of the frame's edge (not the room itself). When the histogram has no empty gap (a subject
/// a couple of pixels of parallax in front of a wall), the band is bounded by the histogram's valleys instead.
/// The photo's colours then re-decide a margin around the outline (colour histograms of the region's core
/// against its surroundings: depth maps are coarse and matchers fatten near surfaces), and a colour guided filter
/// (He et al.) gives the soft edge.
public enum PortraitMatteEstimator {
    /// Matte (0…1, 1 = person) at image's size from a display-referred RGB image (3 ch, 0…1) and a depth map of any
    /// size registered to it; nil when no subject separates from the background.
    ///
    /// - Parameter subjectPoint: the subject, normalised (0, 0) top-left … (1, 1) bottom-right; nil picks the
    ///   nearest large region near the centre.
    public static func estimate(image: Raster<Float>, depth: DepthMap, subjectPoint: SIMD2<Double>?) throws -> Raster<Float>? {
        guard image.channels == 3 else { throw DepthError.mismatchedInputs("image has \(image.channels) channels, expected 3") }
        guard image.width > 0, image.height > 0 else { throw DepthError.mismatchedInputs("image is \(image.size)") }
        guard depth.values.channels == 1 else {
            throw DepthError.mismatchedInputs("depth has \(depth.values.channels) channels, expected 1")
        }
        guard depth.values.width > 0, depth.values.height > 0 else { throw DepthError.mismatchedInputs("depth is \(depth.size)") }
        if let p = subjectPoint, !(p.x.isFinite && p.y.isFinite && (0...1).contains(p.x) && (0...1).contains(p.y)) {
            throw DepthError.invalidParameter("subject point \(p) outside 0…1")
        }
        let width = image.width, height = image.height
        let dw = depth.values.width, dh = depth.values.height

        var nearness = depth.values.storage.map { v -> Float in
            guard v.isFinite else { return .nan }
            switch depth.kind {
            case .disparity: return v
            case .depth: return v > 0 ? 1 / v : .nan
            }
        }
        guard nearness.contains(where: { $0.isFinite }) else { throw DepthError.noData("the depth map has no finite value") }
        let sigma = noiseLevel(nearness, width: dw, height: dh)
        let measured = nearness
        fillHolesFromFartherSide(&nearness, width: dw, height: dh)
        let layer = upsample(nearness, from: Size(width: dw, height: dh), to: Size(width: width, height: height))

        // The subject's seed pixel and nearness.
        let seedRadius = max(1, min(width, height) / 100)
        let seed: (x: Int, y: Int)
        if let p = subjectPoint {
            seed = (min(width - 1, Int(p.x * Double(width))), min(height - 1, Int(p.y * Double(height))))
        } else {
            seed = nearestLargeRegionNearCentre(layer, width: width, height: height, sigma: sigma)
        }
        // The subject's nearness from what was measured near the seed (a plain face is often a stereo hole, which
        // the filling above gives the background's value).
        let depthSeed = (x: min(dw - 1, seed.x * dw / width), y: min(dh - 1, seed.y * dh / height))
        let subject = measuredMedian(measured, width: dw, height: dh, around: depthSeed)
            ?? median(of: layer, width: width, height: height, around: seed, radius: seedRadius)

        // Depth band bounded by empty gaps in the local histogram (window around the seed); when that gives no
        // subject standing in front of a background, the band between the histogram's valleys.
        let openRadius = max(1, Int((Double(width) / Double(dw)).rounded(.up)))
        func region(in band: ClosedRange<Float>) -> [Bool]? {
            var inBand = [Bool](repeating: false, count: width * height)
            for i in 0..<(width * height) where layer[i] >= band.lowerBound && layer[i] <= band.upperBound { inBand[i] = true }
            // Opening removes the thin lines bilinear upsampling leaves in the band where a nearer and a farther
            // surface meet (the board's edge against the wall passes through the person's depth): about one depth
            // pixel wide.
            inBand = opened(inBand, width: width, height: height, radius: openRadius)
            guard var coarse = largestComponent(inBand, width: width, height: height, touching: seed, radius: seedRadius) else {
                return nil
            }
            let area = coarse.reduce(0) { $0 + ($1 ? 1 : 0) }
            guard area * 1000 >= width * height, area * 100 <= 98 * width * height else { return nil }
            fillHoles(&coarse, width: width, height: height)
            guard outlineMostlyBordersBackground(coarse, layer: layer, width: width, height: height, band: band) else { return nil }
            return coarse
        }
        let gapBand = subjectBand(layer, width: width, height: height, seed: seed, subject: subject, sigma: sigma)
        guard var coarse = gapBand.flatMap(region(in:))
            ?? valleyBand(measured, width: dw, height: dh, seed: depthSeed, subject: subject).flatMap(region(in:)) else {
            return nil
        }

        // Edges onto the photo: the outline is re-decided by colour within a margin of it, then a colour guided
        // filter (radius ≈ 0.6 % of the image's long side) gives the soft edge.
        let guide = image.storage.map { $0.isFinite ? min(max($0, 0), 1) : 0 }
        let margin = max(2, Int((Double(max(width, height)) * 0.014).rounded()))
        coarse = refinedByColour(coarse, guide: guide, width: width, height: height, seed: seed, margin: margin)
        let radius = max(2, Int((Double(max(width, height)) / 170).rounded()))
        let input = coarse.map { $0 ? Float(1) : 0 }
        let refined = GuidedFilter.filter(input: input, guide: guide, width: width, height: height, radius: radius, epsilon: 1e-3)
        // The filter leaves faint halos (a few %) where background texture correlates with the matte inside a window;
        // a stretch about ½ clears them and keeps the ½ contour where it is.
        return Raster(width: width, height: height, channels: 1, storage: refined.map { min(max(($0 - 0.15) / 0.7, 0), 1) })
    }

    // MARK: Depth preparation

    /// Robust depth-noise level: the median absolute difference of finite neighbours, as a Gaussian sigma, floored at
    /// 0.1 % of the value range (a noise-free map still gets a tolerance).
    static func noiseLevel(_ values: [Float], width: Int, height: Int) -> Float {
        var differences: [Float] = []
        differences.reserveCapacity(min(values.count, 400_000))
        let step = max(1, values.count / 200_000)
        var i = 0
        while i < values.count {
            let x = i % width, y = i / width
            let v = values[i]
            if v.isFinite {
                if x + 1 < width, values[i + 1].isFinite { differences.append(abs(values[i + 1] - v)) }
                if y + 1 < height, values[i + width].isFinite { differences.append(abs(values[i + width] - v)) }
            }
            i += step
        }
        let finite = values.filter { $0.isFinite }.sorted()
        let range = finite.isEmpty ? 0 : finite[min(finite.count - 1, finite.count * 99 / 100)] - finite[finite.count / 100]
        guard !differences.isEmpty else { return max(range * 1e-3, 1e-6) }
        differences.sort()
        let mad = differences[differences.count / 2]
        return max(mad * 1.4826 / Float(2).squareRoot(), range * 1e-3, 1e-6)
    }

    /// Fills NaN runs along rows with the farther (smaller nearness) of the run's two ends — stereo holes are
    /// occlusions of the background — then rows with no value from the columns.
    static func fillHolesFromFartherSide(_ values: inout [Float], width: Int, height: Int) {
        func fillRun(_ count: Int, _ at: (Int) -> Int) {
            var i = 0
            while i < count {
                guard !values[at(i)].isFinite else { i += 1; continue }
                var j = i
                while j < count, !values[at(j)].isFinite { j += 1 }
                let left: Float? = i > 0 ? values[at(i - 1)] : nil, right: Float? = j < count ? values[at(j)] : nil
                if let fill = [left, right].compactMap({ $0 }).min() {
                    for k in i..<j { values[at(k)] = fill }
                }
                i = j
            }
        }
        for y in 0..<height { fillRun(width) { y * width + $0 } }
        for x in 0..<width { fillRun(height) { $0 * width + x } }
    }

    /// Bilinear resampling with pixel centres registered ((x + ½)·scale − ½), edges clamped.
    static func upsample(_ values: [Float], from source: Size, to target: Size) -> [Float] {
        let sw = source.width, sh = source.height, tw = target.width, th = target.height
        func taps(_ n: Int, _ sn: Int) -> [(Int, Int, Float)] {
            (0..<n).map { i in
                let s = min(max((Double(i) + 0.5) * Double(sn) / Double(n) - 0.5, 0), Double(sn - 1))
                let i0 = Int(s)
                return (i0, min(i0 + 1, sn - 1), Float(s - Double(i0)))
            }
        }
        let xs = taps(tw, sw), ys = taps(th, sh)
        var out = [Float](repeating: 0, count: tw * th)
        values.withUnsafeBufferPointer { srcBuffer in
            out.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                Parallel.forEachBand(height: th) { rows in
                    for y in rows {
                        let (y0, y1, fy) = ys[y]
                        let r0 = src + y0 * sw, r1 = src + y1 * sw
                        for x in 0..<tw {
                            let (x0, x1, fx) = xs[x]
                            let top = r0[x0] + (r0[x1] - r0[x0]) * fx, bottom = r1[x0] + (r1[x1] - r1[x0]) * fx
                            dst[y * tw + x] = top + (bottom - top) * fy
                        }
                    }
                }
            }
        }
        return out
    }

    // MARK: Subject

    static func median(of values: [Float], width: Int, height: Int, around c: (x: Int, y: Int), radius: Int) -> Float {
        var window: [Float] = []
        for y in max(0, c.y - radius)...min(height - 1, c.y + radius) {
            for x in max(0, c.x - radius)...min(width - 1, c.x + radius) where values[y * width + x].isFinite {
                window.append(values[y * width + x])
            }
        }
        window.sort()
        return window.isEmpty ? values[c.y * width + c.x] : window[window.count / 2]
    }

    /// Without a subject point: the nearest 15 % of the central quarter of the frame, and its pixel closest to the centre.
    static func nearestLargeRegionNearCentre(_ values: [Float], width: Int, height: Int, sigma: Float) -> (x: Int, y: Int) {
        let xr = (width / 4)...max(width / 4, (3 * width) / 4 - 1), yr = (height / 4)...max(height / 4, (3 * height) / 4 - 1)
        var central: [Float] = []
        for y in yr { for x in xr { central.append(values[y * width + x]) } }
        central.sort()
        let level = central[min(central.count - 1, central.count * 85 / 100)]
        var best = (x: width / 2, y: height / 2), bestDistance = Int.max
        for y in yr {
            for x in xr where values[y * width + x] >= level - 3 * sigma {
                let d = (x - width / 2) * (x - width / 2) + (y - height / 2) * (y - height / 2)
                if d < bestDistance { bestDistance = d; best = (x, y) }
            }
        }
        return best
    }

    /// The subject's nearness band: from the middle of the first empty stretch of the histogram below the subject
    /// (wider than 3σ) to the middle of the first above it (or everything nearer when there is none); nil when
    /// nothing lies clearly behind the subject.
    static func subjectBand(_ values: [Float], width: Int, height: Int, seed: (x: Int, y: Int), subject: Float,
                            sigma: Float) -> ClosedRange<Float>? {
        let hx = max(8, Int(0.3 * Double(max(width, height))))
        let xr = max(0, seed.x - hx)...min(width - 1, seed.x + hx), yr = max(0, seed.y - hx)...min(height - 1, seed.y + hx)
        var low = Float.infinity, high = -Float.infinity
        for y in yr { for x in xr { let v = values[y * width + x]; low = min(low, v); high = max(high, v) } }
        guard high > low, subject.isFinite else { return nil }
        let bins = 512
        let binWidth = (high - low) / Float(bins)
        var counts = [Float](repeating: 0, count: bins)
        for y in yr {
            for x in xr { counts[min(bins - 1, Int((values[y * width + x] - low) / binWidth))] += 1 }
        }
        var smooth = [Float](repeating: 0, count: bins)
        for b in 0..<bins {
            var s: Float = 0
            for k in max(0, b - 2)...min(bins - 1, b + 2) { s += counts[k] }
            smooth[b] = s / 5
        }
        func bin(_ v: Float) -> Int { min(bins - 1, max(0, Int((v - low) / binWidth))) }
        let subjectBin = bin(subject)
        var peak: Float = 0
        for b in bin(subject - 3 * sigma)...bin(subject + 3 * sigma) { peak = max(peak, smooth[b]) }
        let empty = max(0.03 * peak, 1)
        let minimumGap = max(3 * sigma, 4 * binWidth)

        // Walk away from the subject; a gap counts once something non-empty lies beyond it.
        func gap(direction: Int) -> Float? {
            var run = 0, b = subjectBin
            while b >= 0, b < bins {
                if smooth[b] <= empty {
                    run += 1
                } else {
                    if Float(run) * binWidth >= minimumGap {
                        let start = direction < 0 ? b + 1 : b - run
                        return low + (Float(start) + Float(run) / 2) * binWidth
                    }
                    run = 0
                }
                b += direction
            }
            return nil
        }
        guard let far = gap(direction: -1) else { return nil }
        let near = gap(direction: 1) ?? Float.infinity
        return far...near
    }

    /// Median of the finite measured values in the smallest square around `c` (radius 2, 4, 8, … up to a tenth
    /// of the map's width) holding at least 20 of them; nil when none does.
    static func measuredMedian(_ values: [Float], width: Int, height: Int, around c: (x: Int, y: Int)) -> Float? {
        var radius = 2
        while radius <= max(2, width / 10) {
            var window: [Float] = []
            for y in max(0, c.y - radius)...min(height - 1, c.y + radius) {
                for x in max(0, c.x - radius)...min(width - 1, c.x + radius) where values[y * width + x].isFinite {
                    window.append(values[y * width + x])
                }
            }
            if window.count >= 20 {
                window.sort()
                return window[window.count / 2]
            }
            radius *= 2
        }
        return nil
    }

    /// The subject's nearness band when the histogram has no empty gap: a 64-bin histogram of the measured
    /// (finite) values in a window around the seed, from the subject's mode outwards to the deepest point of each
    /// valley that the histogram climbs out of again (to over twice the valley and at most half the mode's height
    /// there); nil when nothing farther separates from the subject that way.
    static func valleyBand(_ values: [Float], width: Int, height: Int, seed: (x: Int, y: Int),
                           subject: Float) -> ClosedRange<Float>? {
        let hx = max(8, Int(0.3 * Double(max(width, height))))
        var window: [Float] = []
        for y in max(0, seed.y - hx)...min(height - 1, seed.y + hx) {
            for x in max(0, seed.x - hx)...min(width - 1, seed.x + hx) where values[y * width + x].isFinite {
                window.append(values[y * width + x])
            }
        }
        guard window.count >= 100, subject.isFinite else { return nil }
        window.sort()
        let low = window[window.count / 200], high = window[window.count - 1 - window.count / 200]
        guard high > low else { return nil }
        let bins = 64, binWidth = (high - low) / Float(bins)
        var counts = [Float](repeating: 0, count: bins)
        for v in window where v >= low && v <= high { counts[min(bins - 1, Int((v - low) / binWidth))] += 1 }
        var smooth = [Float](repeating: 0, count: bins)
        for b in 0..<bins {
            let range = max(0, b - 1)...min(bins - 1, b + 1)
            smooth[b] = range.reduce(0) { $0 + counts[$1] } / Float(range.count)
        }
        // Climb from the subject's bin to the top of its mode.
        var peak = min(bins - 1, max(0, Int((subject - low) / binWidth)))
        while true {
            let left = peak > 0 ? smooth[peak - 1] : -1, right = peak + 1 < bins ? smooth[peak + 1] : -1
            if left > smooth[peak], left >= right { peak -= 1 } else if right > smooth[peak] { peak += 1 } else { break }
        }
        func valley(direction: Int) -> Float? {
            var b = peak, deepest = peak
            while b + direction >= 0, b + direction < bins {
                b += direction
                if smooth[b] < smooth[deepest] { deepest = b }
                if smooth[b] > 2 * smooth[deepest] + 5, smooth[deepest] < 0.5 * smooth[peak] {
                    return low + (Float(deepest) + 0.5) * binWidth
                }
            }
            return nil
        }
        guard let far = valley(direction: -1) else { return nil }
        return far...(valley(direction: 1) ?? .infinity)
    }

    /// Re-decides the pixels within `margin` of the region's outline by colour: 16³-bin colour histograms of the
    /// region's core (eroded by the margin) and of its surroundings (outside the dilated region, within three
    /// margins of it) give each pixel's log-likelihood ratio, averaged over 3×3, with the depth's answer as a small
    /// tie-break; then the component at the seed with its holes filled. Returns `mask` unchanged when the core or
    /// the surroundings are empty.
    static func refinedByColour(_ mask: [Bool], guide: [Float], width: Int, height: Int, seed: (x: Int, y: Int),
                                margin: Int) -> [Bool] {
        let coverage = GuidedFilter.boxMean(mask.map { $0 ? 1 : 0 }, width: width, height: height, channels: 1, radius: margin)
        let core = coverage.map { $0 > 0.9999 }, outer = coverage.map { $0 > 1e-4 }
        var minX = width, maxX = -1, minY = height, maxY = -1
        for y in 0..<height {
            for x in 0..<width where outer[y * width + x] {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return mask }
        let pad = 3 * margin
        let xs = max(0, minX - pad)...min(width - 1, maxX + pad), ys = max(0, minY - pad)...min(height - 1, maxY + pad)

        let levels = 16
        func bin(_ i: Int) -> Int {
            var b = 0
            for c in 0..<3 { b = b * levels + min(levels - 1, Int(guide[3 * i + c] * Float(levels))) }
            return b
        }
        var inside = [Float](repeating: 0, count: levels * levels * levels), around = inside
        var insideCount: Float = 0, aroundCount: Float = 0
        for y in ys {
            for x in xs {
                let i = y * width + x
                if core[i] { inside[bin(i)] += 1; insideCount += 1 } else if !outer[i] { around[bin(i)] += 1; aroundCount += 1 }
            }
        }
        guard insideCount > 0, aroundCount > 0 else { return mask }
        var ratio = [Float](repeating: 0, count: inside.count)
        for b in ratio.indices {
            let p = (inside[b] + 0.5) / insideCount, q = (around[b] + 0.5) / aroundCount
            ratio[b] = Float(log(Double(p) / Double(q)))
        }
        var evidence = [Float](repeating: 0, count: width * height)
        for y in ys { for x in xs { let i = y * width + x; if outer[i] && !core[i] { evidence[i] = ratio[bin(i)] } } }
        let averaged = GuidedFilter.boxMean(evidence, width: width, height: height, channels: 1, radius: 1)
        var decided = core
        for i in decided.indices where outer[i] && !core[i] { decided[i] = averaged[i] + (mask[i] ? 0.5 : -0.5) > 0 }
        decided = opened(decided, width: width, height: height, radius: 1)
        guard var result = largestComponent(decided, width: width, height: height, touching: seed, radius: margin) else {
            return mask
        }
        fillHoles(&result, width: width, height: height)
        return result
    }

    /// Morphological opening with a (2r+1)² square: erosion then dilation, through box means.
    static func opened(_ mask: [Bool], width: Int, height: Int, radius: Int) -> [Bool] {
        let eroded = GuidedFilter.boxMean(mask.map { $0 ? 1 : 0 }, width: width, height: height, channels: 1, radius: radius)
        let dilated = GuidedFilter.boxMean(eroded.map { $0 > 0.9999 ? 1 : 0 }, width: width, height: height, channels: 1,
                                           radius: radius)
        return dilated.map { $0 > 1e-4 }
    }

    /// The largest 4-connected region of `mask` holding a pixel within `radius` of `point`.
    static func largestComponent(_ mask: [Bool], width: Int, height: Int, touching point: (x: Int, y: Int), radius: Int) -> [Bool]? {
        var label = [Int32](repeating: 0, count: mask.count)
        var best: Int32 = 0, bestSize = 0, next: Int32 = 0
        var stack: [Int] = []
        for y in max(0, point.y - radius)...min(height - 1, point.y + radius) {
            for x in max(0, point.x - radius)...min(width - 1, point.x + radius) {
                let start = y * width + x
                guard mask[start], label[start] == 0 else { continue }
                next += 1
                label[start] = next
                stack.append(start)
                var size = 0
                func visit(_ n: Int) {
                    if mask[n], label[n] == 0 { label[n] = next; stack.append(n) }
                }
                while let i = stack.popLast() {
                    size += 1
                    let px = i % width
                    if px > 0 { visit(i - 1) }
                    if px + 1 < width { visit(i + 1) }
                    if i >= width { visit(i - width) }
                    if i + width < mask.count { visit(i + width) }
                }
                if size > bestSize { bestSize = size; best = next }
            }
        }
        guard best > 0 else { return nil }
        return label.map { $0 == best }
    }

    /// Sets every pixel of `mask` that the outside (4-connected to the image border) cannot reach.
    static func fillHoles(_ mask: inout [Bool], width: Int, height: Int) {
        var outside = [Bool](repeating: false, count: mask.count)
        var stack: [Int] = []
        func push(_ i: Int) { if !mask[i], !outside[i] { outside[i] = true; stack.append(i) } }
        for x in 0..<width { push(x); push((height - 1) * width + x) }
        for y in 0..<height { push(y * width); push(y * width + width - 1) }
        while let i = stack.popLast() {
            let x = i % width
            if x > 0 { push(i - 1) }
            if x + 1 < width { push(i + 1) }
            if i >= width { push(i - width) }
            if i + width < mask.count { push(i + width) }
        }
        for i in 0..<mask.count where !outside[i] { mask[i] = true }
    }

    /// Whether at least half of the region's outline (inside the image) borders something farther than the band.
    static func outlineMostlyBordersBackground(_ mask: [Bool], layer: [Float], width: Int, height: Int,
                                               band: ClosedRange<Float>) -> Bool {
        var farther = 0, nearer = 0
        func classify(_ a: Int, _ b: Int) {
            guard mask[a] != mask[b] else { return }
            let outside = layer[mask[a] ? b : a]
            if outside < band.lowerBound { farther += 1 } else if outside > band.upperBound { nearer += 1 }
        }
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                if x + 1 < width { classify(i, i + 1) }
                if y + 1 < height { classify(i, i + width) }
            }
        }
        // A subject stands inside the picture: a region holding over half of the frame's edge is the
        // room itself (a wall or floor the depth could not split), not someone in front of it.
        var edge = 0
        for x in 0..<width { edge += (mask[x] ? 1 : 0) + (mask[(height - 1) * width + x] ? 1 : 0) }
        for y in 0..<height { edge += (mask[y * width] ? 1 : 0) + (mask[y * width + width - 1] ? 1 : 0) }
        guard edge * 2 <= 2 * (width + height) else { return false }
        return farther > 0 && farther >= nearer
    }
}
