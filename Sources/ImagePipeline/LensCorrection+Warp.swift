import CaptureCore

extension LensCorrection {
    /// `image` (RGB, `size`) with distortion and lateral chromatic aberration resampled away: each output pixel of
    /// plane c is read bilinearly at `recordedPoint(ofCorrected:plane: c)`, clamped to the image (a barrel lens's
    /// correction reads inside it, losing the recorded border, as a phone's distortion correction does).
    /// Images of another size or channel count come back unchanged.
    public func corrected(_ image: Raster<UInt8>) -> Raster<UInt8> {
        warp(image, quantise: { UInt8(max(0, min(255, $0 + 0.5))) })
    }

    /// The same for linear Float RGB.
    public func corrected(_ image: Raster<Float>) -> Raster<Float> {
        warp(image, quantise: { $0 })
    }

    /// `image` (Float, any channels, `size`) brightened by the vignetting gain.
    public func shadingCorrected(_ image: Raster<Float>) -> Raster<Float> {
        guard hasVignetting, image.size == size else { return image }
        var out = image
        let c = image.channels, w = image.width
        out.storage.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let p = buffer.baseAddress!
            Parallel.forEachBand(height: image.height, bandHeight: 32) { rows in
                for y in rows {
                    for x in 0..<w {
                        let g = Float(gain(at: SIMD2(Double(x) + 0.5, Double(y) + 0.5)))
                        for k in 0..<c { p[(y * w + x) * c + k] *= g }
                    }
                }
            }
        }
        return out
    }

    /// A map in the corrected (ideal) geometry moved into the recorded one, green plane: what a depth map measured in
    /// an ideal pinhole view looks like beside an uncorrected photo. NaN samples stay NaN (nearest sample where a
    /// neighbour is missing); beyond the ideal image the edge repeats.
    public func distorted(_ map: Raster<Float>) -> Raster<Float> {
        guard hasWarp, map.channels == 1, map.width > 0, map.height > 0 else { return map }
        let lens = scaled(to: map.size)
        var out = map
        let w = map.width, h = map.height
        map.storage.withUnsafeBufferPointer { source in
            out.storage.withUnsafeMutableBufferPointer { destination in
                nonisolated(unsafe) let src = source.baseAddress!, dst = destination.baseAddress!
                Parallel.forEachBand(height: h, bandHeight: 32) { rows in
                    for y in rows {
                        for x in 0..<w {
                            let p = lens.correctedPoint(ofRecorded: SIMD2(Double(x) + 0.5, Double(y) + 0.5), plane: 1) - 0.5
                            dst[y * w + x] = Self.bilinear(src, w, h, channels: 1, channel: 0, x: p.x, y: p.y, nanAware: true)
                        }
                    }
                }
            }
        }
        return out
    }

    private func warp<Element: WarpSample>(
        _ image: Raster<Element>, quantise: @escaping (Float) -> Element) -> Raster<Element> {
        guard hasWarp, image.size == size, image.channels == 3 || image.channels == 1 else { return image }
        let w = image.width, h = image.height, c = image.channels
        let m = normalisingRadius, centre = center
        let k = (0..<c).map { coefficients(plane: c == 1 ? 1 : $0) }
        var out = image
        image.storage.withUnsafeBufferPointer { source in
            out.storage.withUnsafeMutableBufferPointer { destination in
                nonisolated(unsafe) let src = source.baseAddress!, dst = destination.baseAddress!
                Parallel.forEachBand(height: h, bandHeight: 16) { rows in
                    for y in rows {
                        let dy = Double(y) + 0.5 - centre.y
                        for x in 0..<w {
                            let dx = Double(x) + 0.5 - centre.x
                            let r2 = (dx * dx + dy * dy) / (m * m)
                            for plane in 0..<c {
                                let kp = k[plane]
                                let f = kp[0] + r2 * (kp[1] + r2 * (kp[2] + r2 * kp[3]))
                                let sx = centre.x + dx * f - 0.5, sy = centre.y + dy * f - 0.5
                                let v = Self.bilinear(src, w, h, channels: c, channel: plane, x: sx, y: sy, nanAware: false)
                                dst[(y * w + x) * c + plane] = quantise(v)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Bilinear read of `channel` at continuous sample position (x, y) (sample centres at integers), clamped to the
    /// image; `nanAware` falls back to the nearest sample when any of the four is NaN.
    @inline(__always)
    static func bilinear<Element: WarpSample>(_ src: UnsafePointer<Element>, _ w: Int, _ h: Int,
                                                             channels c: Int, channel: Int, x: Double, y: Double,
                                                             nanAware: Bool) -> Float {
        let cx = min(max(x, 0), Double(w - 1)), cy = min(max(y, 0), Double(h - 1))
        let x0 = min(Int(cx), w - 1), y0 = min(Int(cy), h - 1)
        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
        let fx = Float(cx - Double(x0)), fy = Float(cy - Double(y0))
        let a = src[(y0 * w + x0) * c + channel].floatValue, b = src[(y0 * w + x1) * c + channel].floatValue
        let d = src[(y1 * w + x0) * c + channel].floatValue, e = src[(y1 * w + x1) * c + channel].floatValue
        if nanAware, a.isNaN || b.isNaN || d.isNaN || e.isNaN {
            let nx = fx < 0.5 ? x0 : x1, ny = fy < 0.5 ? y0 : y1
            return src[(ny * w + nx) * c + channel].floatValue
        }
        let top = a + (b - a) * fx, bottom = d + (e - d) * fx
        return top + (bottom - top) * fy
    }
}

/// Sample types the lens warp reads: bytes and Floats, as Float.
protocol WarpSample: BitwiseCopyable, Sendable {
    var floatValue: Float { get }
}

extension UInt8: WarpSample {
    @inline(__always) var floatValue: Float { Float(self) }
}

extension Float: WarpSample {
    @inline(__always) var floatValue: Float { self }
}
