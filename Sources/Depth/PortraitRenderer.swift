import CaptureCore
import Foundation

/// Synthetic depth of field ("portrait mode"): a photo re-blurred as a larger lens would have taken it.
///
/// The virtual lens is a full-frame lens of the photo's 35 mm-equivalent focal length F at f-number N (entrance
/// pupil A = F/N), focused at disparity d_s = 1/s. A surface at disparity d = 1/z blurs to a circle of diameter
/// c = A·F·|z − s| / (z·(s − F)) = A·F·s/(s − F)·|d − d_s| on the 36 × 24 mm frame (diagonal 43.27 mm). The photo
/// spans that frame's diagonal, so in pixels c_px = c · (image diagonal in pixels) / 43.27 mm — e.g. 28 mm f/2.8 on
/// a 4032×3024 photo focused at 1 m gives a 4 m wall a 24.5-pixel disc. The blur is `DefocusBlur`'s occlusion-aware
/// disc (no halos), on the linear RGB so highlights bloom into bright discs.
///
/// A `.relative` depth map is taken at face value (its disparity as 1/m): the blur is then right up to that scale.
public enum PortraitRenderer {
    /// Diagonal of the 36 × 24 mm frame, metres.
    static let fullFrameDiagonal = (0.036 * 0.036 + 0.024 * 0.024).squareRoot()
    /// The widest f-number rendered (the fastest full-frame lenses; phones offer f/1.4 to f/16).
    public static let widestAperture = 0.95
    /// The nearest focus distance rendered, metres (closer than a macro lens focuses).
    public static let nearestFocus = 0.05
    /// The largest blur disc, as a fraction of the image's diagonal: beyond it a photo is a smear, and the blur's
    /// cost grows with the disc (a 1,024-pixel disc over 12 MP takes minutes).
    static let largestDisc = 1.0 / 25

    /// Synthetic depth of field on linear RGB (3 ch): disc bokeh for a lens of `aperture` f-number at the image's
    /// 35 mm-equivalent focal length, focused at `focusDisparity` (1/m; nil = the subject at the centre: the median
    /// disparity of the central tenth of the frame). The depth map (disparity or depth, any size, NaN holes) is
    /// resampled to the image and its holes filled from their neighbours.
    public static func render(image: Raster<Float>, depth: DepthMap, aperture: Double, focalLength35mmEquivalent: Double,
                              focusDisparity: Float?) throws -> Raster<Float> {
        guard image.channels == 3 else { throw DepthError.mismatchedInputs("image has \(image.channels) channels, needs 3") }
        guard image.width > 0, image.height > 0 else { throw DepthError.mismatchedInputs("empty image") }
        guard depth.size.width > 0, depth.size.height > 0, depth.values.channels == 1 else {
            throw DepthError.mismatchedInputs("depth map is empty or not one channel")
        }
        guard aperture.isFinite, aperture >= widestAperture else { throw DepthError.invalidParameter("aperture f/\(aperture)") }
        guard focalLength35mmEquivalent.isFinite, focalLength35mmEquivalent > 0 else {
            throw DepthError.invalidParameter("35 mm-equivalent focal length \(focalLength35mmEquivalent) mm")
        }
        if let focusDisparity, !focusDisparity.isFinite || focusDisparity < 0 || Double(focusDisparity) > 1 / nearestFocus {
            throw DepthError.invalidParameter("focus disparity \(focusDisparity)")
        }
        let disparity = try disparityMap(depth, size: image.size)
        let focus = focusDisparity ?? centreDisparity(disparity)
        let f = focalLength35mmEquivalent / 1000
        let s = focus > 0 ? 1 / Double(focus) : .infinity
        // A·F·s/(s − F) in m², then metres on the frame → pixels of this image.
        let magnification = s.isInfinite ? 1 : s / max(s - f, 1e-6)
        let diagonal = (Double(image.width * image.width) + Double(image.height * image.height)).squareRoot()
        let pixelsPerUnitDisparity = Float(f / aperture * f * magnification * diagonal / fullFrameDiagonal)
        let largest = min(DefocusBlur.maximumDiameter, max(1, Float(diagonal * largestDisc)))
        var coc = Raster<Float>(width: image.width, height: image.height)
        var order = Raster<Float>(width: image.width, height: image.height)
        let w = image.width
        disparity.storage.withUnsafeBufferPointer { source in
            coc.storage.withUnsafeMutableBufferPointer { cocBuffer in
                order.storage.withUnsafeMutableBufferPointer { orderBuffer in
                    let d = source.baseAddress!, c = cocBuffer.baseAddress!, o = orderBuffer.baseAddress!
                    Parallel.forEachBand(height: image.height) { rows in
                        for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
                            c[i] = min(pixelsPerUnitDisparity * abs(d[i] - focus), largest)
                            o[i] = -d[i]   // nearer = larger disparity = smaller distance
                        }
                    }
                }
            }
        }
        return DefocusBlur.blurred([image], cocDiameter: coc, depth: order)[0]
    }

    /// The map as disparity (1/m) at `size`: bilinear over the finite neighbours (holes do not spread NaN), holes
    /// left after that filled from their nearest finite neighbours.
    static func disparityMap(_ map: DepthMap, size: Size) throws -> Raster<Float> {
        var source = map.converted(to: .disparity).values
        for i in source.storage.indices where !(source.storage[i].isFinite && source.storage[i] >= 0) {
            source.storage[i] = .nan
        }
        guard source.storage.contains(where: { !$0.isNaN }) else { throw DepthError.noData("depth map has no finite value") }
        fillHoles(&source)
        let sw = source.width, sh = source.height, w = size.width
        var out = Raster<Float>(width: size.width, height: size.height)
        let sx = Double(sw) / Double(size.width), sy = Double(sh) / Double(size.height)
        // Each output column's two source columns and weight, the same on every row.
        let columns = (0..<w).map { x -> (Int, Int, Float) in
            let fx = min(max((Double(x) + 0.5) * sx - 0.5, 0), Double(sw - 1))
            let x0 = Int(fx)
            return (x0, min(x0 + 1, sw - 1), Float(fx - Double(x0)))
        }
        source.storage.withUnsafeBufferPointer { sourceBuffer in
            out.storage.withUnsafeMutableBufferPointer { outBuffer in
                let s = sourceBuffer.baseAddress!, o = outBuffer.baseAddress!
                Parallel.forEachBand(height: size.height) { rows in
                    for y in rows {
                        let fy = min(max((Double(y) + 0.5) * sy - 0.5, 0), Double(sh - 1))
                        let y0 = Int(fy), ty = Float(fy - Double(y0))
                        let upper = s + y0 * sw, lower = s + min(y0 + 1, sh - 1) * sw, row = o + y * w
                        for (x, (x0, x1, tx)) in columns.enumerated() {
                            let top = upper[x0] * (1 - tx) + upper[x1] * tx
                            let bottom = lower[x0] * (1 - tx) + lower[x1] * tx
                            row[x] = top * (1 - ty) + bottom * ty
                        }
                    }
                }
            }
        }
        return out
    }

    /// Replaces NaN by the mean of its finite 8-neighbours, ring by ring inwards, until none is left.
    static func fillHoles(_ r: inout Raster<Float>) {
        let w = r.width, h = r.height
        var holes = r.storage.indices.filter { r.storage[$0].isNaN }
        while !holes.isEmpty {
            var filled: [(Int, Float)] = []
            var remaining: [Int] = []
            for i in holes {
                let x = i % w, y = i / w
                var sum: Float = 0, n: Float = 0
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let xx = x + dx, yy = y + dy
                        guard xx >= 0, xx < w, yy >= 0, yy < h else { continue }
                        let v = r.storage[yy * w + xx]
                        if !v.isNaN { sum += v; n += 1 }
                    }
                }
                if n > 0 { filled.append((i, sum / n)) } else { remaining.append(i) }
            }
            for (i, v) in filled { r.storage[i] = v }
            holes = remaining
        }
    }

    /// Median disparity of the central tenth of the frame (a tenth of each side, centred).
    static func centreDisparity(_ d: Raster<Float>) -> Float {
        let w = d.width, h = d.height
        let rw = max(1, w / 10), rh = max(1, h / 10)
        var values: [Float] = []
        for y in (h - rh) / 2..<((h - rh) / 2 + rh) { for x in (w - rw) / 2..<((w - rw) / 2 + rw) { values.append(d[x, y]) } }
        values.sort()
        return values[values.count / 2]
    }
}
