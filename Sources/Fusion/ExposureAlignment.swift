import CaptureCore

/// Global-translation alignment that is robust to exposure differences: Ward's (2003) median-threshold
/// bitmaps with exclusion masks, searched coarse to fine over an image pyramid (like OpenCV's `AlignMTB`
/// or hugin's `align_image_stack` for shifts). Works on any 1-, 3- or 4-channel 8-bit images of equal size.
public struct ExposureAlignment: Sendable {
    /// Largest shift searched, in pixels at full resolution, in each direction.
    public var maxShift: Int
    /// Grey levels within this distance of a level's median are excluded from the comparison (Ward: 4).
    public var exclusionRange: Int
    /// The finest pyramid level searched (0, the default: full resolution; at most the coarsest level). Shifts then
    /// come in multiples of 2^level (before the clamp to `maxShift`), and the finer levels' work (¾ of it per level
    /// skipped) is saved: for callers that refine the shifts themselves, as `fuse`'s tile alignment does within its
    /// search radius.
    public var finestLevel = 0

    /// - Parameter maxShift: largest shift searched, in pixels at full resolution.
    public init(maxShift: Int = 64, exclusionRange: Int = 4) {
        self.maxShift = maxShift
        self.exclusionRange = exclusionRange
    }

    /// Shift of each image relative to `reference`: image[i](x + dx, y + dy) ≈ reference(x, y).
    /// The reference's own shift is (0, 0).
    public func estimateShifts(_ images: [Raster<UInt8>], reference: Int) throws -> [(dx: Int, dy: Int)] {
        try estimate(images, reference: reference).shifts
    }

    /// The shifts `estimateShifts` finds and, for each image, the share of the pixels both it and the reference hold
    /// clearly above or below their medians (outside the exclusion range) that fall on opposite sides at its shift —
    /// Ward's bitmap test at the finest level searched. Exposures of one scene disagree in a few percent (noise, what
    /// moved); two different scenes in about half. The reference's own is 0 (OpenCapture addition).
    public func estimate(_ images: [Raster<UInt8>], reference: Int) throws -> (shifts: [(dx: Int, dy: Int)], disagreement: [Double]) {
        try FusionError.validate(images)
        guard images.indices.contains(reference) else { throw FusionError.referenceOutOfRange(reference) }
        guard maxShift >= 0 else { throw FusionError.invalidParameter("maxShift = \(maxShift) (must be ≥ 0)") }
        guard finestLevel >= 0 else { throw FusionError.invalidParameter("finestLevel = \(finestLevel) (must be ≥ 0)") }
        guard [1, 3, 4].contains(images[0].channels) else {
            throw FusionError.unsupportedChannelCount(images[0].channels)
        }
        // Levels: enough that the summed per-level ±1 steps (2^levels − 1) reach maxShift, while the
        // coarsest level keeps at least 16 pixels on its shorter side.
        var levels = 1
        while (1 << levels) - 1 < maxShift, min(images[0].width, images[0].height) >> levels >= 16 { levels += 1 }
        let finest = min(finestLevel, levels - 1)
        let referencePyramid = greyPyramid(images[reference], levels: levels)
        let referenceBitmaps = referencePyramid.indices.map { $0 < finest ? nil : Bitmaps(referencePyramid[$0], exclusionRange: exclusionRange) }
        let found = images.indices.map { index -> (dx: Int, dy: Int, disagreement: Double) in
            if index == reference { return (0, 0, 0) }
            let pyramid = greyPyramid(images[index], levels: levels)
            var dx = 0, dy = 0, disagreement = 0.0
            for level in stride(from: levels - 1, through: finest, by: -1) {
                dx *= 2; dy *= 2
                let moving = Bitmaps(pyramid[level], exclusionRange: exclusionRange)
                // Ties in the masked count (common on smooth content, where the exclusion band is wide)
                // are broken by the unmasked count; then the centre wins.
                var best = (error: (Int.max, Int.max), dx: dx, dy: dy)
                for (sx, sy) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)] {
                    let error = referenceBitmaps[level]!.mismatch(moving, dx: dx + sx, dy: dy + sy)
                    if error < best.error { best = (error, dx + sx, dy + sy) }
                }
                dx = best.dx; dy = best.dy
                if level == finest {
                    let counts = referenceBitmaps[level]!.counts(moving, dx: dx, dy: dy)
                    disagreement = Double(counts.masked) / Double(max(1, counts.compared))
                }
            }
            dx <<= finest; dy <<= finest
            return (min(max(dx, -maxShift), maxShift), min(max(dy, -maxShift), maxShift), disagreement)
        }
        return (found.map { ($0.dx, $0.dy) }, found.map(\.disagreement))
    }

    /// The images translated by their estimated shifts (edge pixels replicated), ready to fuse.
    public func align(_ images: [Raster<UInt8>], reference: Int) throws -> [Raster<UInt8>] {
        translate(images, by: try estimateShifts(images, reference: reference))
    }

    /// The images translated by `shifts` (one per image, as ``estimateShifts(_:reference:)`` gives them;
    /// edge pixels replicated).
    public func translate(_ images: [Raster<UInt8>], by shifts: [(dx: Int, dy: Int)]) -> [Raster<UInt8>] {
        zip(images, shifts).map { Self.translate($0, dx: $1.dx, dy: $1.dy) }
    }

    /// out(x, y) = image(x + dx, y + dy), coordinates clamped to the image.
    static func translate(_ image: Raster<UInt8>, dx: Int, dy: Int) -> Raster<UInt8> {
        if dx == 0 && dy == 0 { return image }
        let w = image.width, h = image.height, ch = image.channels
        var out = Raster<UInt8>(width: w, height: h, channels: ch)
        image.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                Parallel.forEachBand(height: h) { rows in
                    for y in rows {
                        let sr = s + min(max(y + dy, 0), h - 1) * w * ch, dr = d + y * w * ch
                        // Columns whose source lies inside the row: one block copy; the rest replicate an edge.
                        let lo = min(max(-dx, 0), w), hi = max(min(w - dx, w), lo)
                        for x in 0..<lo { for c in 0..<ch { dr[x * ch + c] = sr[c] } }
                        if hi > lo { (dr + lo * ch).update(from: sr + (lo + dx) * ch, count: (hi - lo) * ch) }
                        for x in hi..<w { for c in 0..<ch { dr[x * ch + c] = sr[(w - 1) * ch + c] } }
                    }
                }
            }
        }
        return out
    }

    /// Ward's grey of 2 × 2 pixel means of an RGB image (⌊w/2⌋ × ⌊h/2⌋), in one pass: level 1 of
    /// `greyPyramid` up to rounding, without the full-resolution grey.
    static func halfGrey(_ image: Raster<UInt8>) -> GreyImage {
        let w = image.width, ch = image.channels, nw = max(1, w / 2), nh = max(1, image.height / 2)
        var half = [UInt8](repeating: 0, count: nw * nh)
        image.storage.withUnsafeBufferPointer { src in
            half.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                Parallel.forEachBand(height: nh) { rows in
                    for y in rows {
                        let r0 = s + min(2 * y, image.height - 1) * w * ch, r1 = s + min(2 * y + 1, image.height - 1) * w * ch
                        for x in 0..<nw {
                            let a = min(2 * x, w - 1) * ch, b = min(2 * x + 1, w - 1) * ch
                            @inline(__always) func grey(_ p: UnsafePointer<UInt8>) -> Int {
                                ch == 1 ? 256 * Int(p[0]) : 54 * Int(p[0]) + 183 * Int(p[1]) + 19 * Int(p[2])
                            }
                            let total = grey(r0 + a) + grey(r0 + b) + grey(r1 + a) + grey(r1 + b)
                            d[y * nw + x] = UInt8(min(255, (total + 512) >> 10))
                        }
                    }
                }
            }
        }
        return GreyImage(width: nw, height: nh, pixels: half)
    }

    /// Grey levels (Ward's 54R + 183G + 19B) at full resolution and then halved `levels − 1` times (2×2 means).
    func greyPyramid(_ image: Raster<UInt8>, levels: Int) -> [GreyImage] {
        let w = image.width, h = image.height, ch = image.channels
        var grey = [UInt8](repeating: 0, count: w * h)
        image.storage.withUnsafeBufferPointer { src in
            grey.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                Parallel.forEachBand(height: h) { rows in
                    for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
                        if ch == 1 { d[i] = s[i]; continue }
                        let p = s + i * ch
                        let r = 54 * Int(p[0]), g = 183 * Int(p[1]), b = 19 * Int(p[2])
                        d[i] = UInt8((r + g + b) >> 8)
                    }
                }
            }
        }
        var pyramid = [GreyImage(width: w, height: h, pixels: grey)]
        for _ in 1..<max(1, levels) {
            let g = pyramid.last!, nw = max(1, g.width / 2), nh = max(1, g.height / 2), gw = g.width, gh = g.height
            var half = [UInt8](repeating: 0, count: nw * nh)
            g.pixels.withUnsafeBufferPointer { src in
                half.withUnsafeMutableBufferPointer { dst in
                    let s = src.baseAddress!, d = dst.baseAddress!
                    Parallel.forEachBand(height: nh) { rows in
                        for y in rows {
                            let r0 = s + min(2 * y, gh - 1) * gw, r1 = s + min(2 * y + 1, gh - 1) * gw
                            for x in 0..<nw {
                                let x0 = min(2 * x, gw - 1), x1 = min(2 * x + 1, gw - 1)
                                let top = UInt16(r0[x0]) + UInt16(r0[x1]), bottom = UInt16(r1[x0]) + UInt16(r1[x1])
                                d[y * nw + x] = UInt8((top + bottom + 2) >> 2)
                            }
                        }
                    }
                }
            }
            pyramid.append(GreyImage(width: nw, height: nh, pixels: half))
        }
        return pyramid
    }
}

/// An 8-bit grey image (internal to alignment).
struct GreyImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]
}

/// Median-threshold bitmap and exclusion bitmap of one grey level, rows packed into 64-bit words
/// (bit x & 63 of word x >> 6); bits past the width are zero in both.
struct Bitmaps {
    let width: Int, height: Int, wordsPerRow: Int
    var threshold: [UInt64]
    var exclusion: [UInt64]

    init(_ image: GreyImage, exclusionRange: Int) {
        width = image.width; height = image.height
        wordsPerRow = (width + 63) / 64
        var histogram = [Int](repeating: 0, count: 256)
        for v in image.pixels { histogram[Int(v)] += 1 }
        var median = 0, count = 0
        while median < 255 && count + histogram[median] <= image.pixels.count / 2 { count += histogram[median]; median += 1 }
        threshold = [UInt64](repeating: 0, count: wordsPerRow * height)
        exclusion = [UInt64](repeating: 0, count: wordsPerRow * height)
        let width = width, words = wordsPerRow
        let low = median - exclusionRange, high = median + exclusionRange
        image.pixels.withUnsafeBufferPointer { src in
            threshold.withUnsafeMutableBufferPointer { t in
                exclusion.withUnsafeMutableBufferPointer { e in
                    let s = src.baseAddress!, tb = t.baseAddress!, eb = e.baseAddress!
                    Parallel.forEachBand(height: height) { rows in
                        for y in rows {
                            let row = s + y * width
                            for word in 0..<words {
                                var above: UInt64 = 0, outside: UInt64 = 0
                                let start = word * 64, count = min(64, width - start)
                                for bit in 0..<count {
                                    let v = Int(row[start + bit])
                                    above |= (v > median ? 1 : 0) << UInt64(bit)
                                    outside |= (v < low || v > high ? 1 : 0) << UInt64(bit)
                                }
                                tb[y * words + word] = above
                                eb[y * words + word] = outside
                            }
                        }
                    }
                }
            }
        }
    }

    /// Bits x ..< x + 64 of a row of `n` words (any x; zero outside the row).
    @inline(__always)
    static func bits(_ row: UnsafePointer<UInt64>, words n: Int, from x: Int) -> UInt64 {
        let q = x >> 6, r = UInt64(x & 63)
        let lo = q >= 0 && q < n ? row[q] : 0
        if r == 0 { return lo }
        let hi = q + 1 >= 0 && q + 1 < n ? row[q + 1] : 0
        return (lo >> r) | (hi << (64 - r))
    }

    /// Counts of pixels where this bitmap and `other` shifted by (dx, dy) disagree — (both unexcluded, all),
    /// comparing self(x, y) with other(x + dx, y + dy), normalised to the overlap's area.
    func mismatch(_ other: Bitmaps, dx: Int, dy: Int) -> (Int, Int) {
        guard abs(dx) < width, abs(dy) < height else { return (Int.max, Int.max) }
        let (total, unmasked, _) = counts(other, dx: dx, dy: dy)
        // Larger shifts see less overlap; scale the counts to the full area so they stay comparable.
        let overlap = (width - abs(dx)) * (height - abs(dy)), area = width * height
        return (total * area / max(1, overlap), unmasked * area / max(1, overlap))
    }

    /// Over the overlap of this bitmap and `other` shifted by (dx, dy): pixels that disagree where neither is excluded
    /// (`masked`), pixels that disagree at all (`unmasked`), and pixels neither excludes (`compared`).
    func counts(_ other: Bitmaps, dx: Int, dy: Int) -> (masked: Int, unmasked: Int, compared: Int) {
        guard abs(dx) < width, abs(dy) < height else { return (0, 0, 0) }
        var total = 0, unmasked = 0, compared = 0
        let words = wordsPerRow
        // Ones where x < width: pixels of a shifted row that exist.
        let validRow = (0..<words).map { w in
            let bits = min(64, width - w * 64)
            return bits >= 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
        }
        validRow.withUnsafeBufferPointer { valid in
        threshold.withUnsafeBufferPointer { t0 in exclusion.withUnsafeBufferPointer { e0 in
        other.threshold.withUnsafeBufferPointer { t1 in other.exclusion.withUnsafeBufferPointer { e1 in
            for y in max(0, -dy)..<min(height, height - dy) {
                let a = y * wordsPerRow, b = (y + dy) * wordsPerRow
                for w in 0..<words {
                    let x = w * 64 + dx
                    let moved = Self.bits(t1.baseAddress! + b, words: words, from: x)
                    let movedMask = Self.bits(e1.baseAddress! + b, words: words, from: x)
                    let differ = t0[a + w] ^ moved
                    total += (differ & e0[a + w] & movedMask).nonzeroBitCount
                    unmasked += (differ & Self.bits(valid.baseAddress!, words: words, from: x)).nonzeroBitCount
                    compared += (e0[a + w] & movedMask).nonzeroBitCount
                }
            }
        }}}}}
        return (total, unmasked, compared)
    }
}
