import CaptureCore

extension LensCorrection {
    /// `image` (RGB, `size`) with distortion and lateral chromatic aberration resampled away: each output pixel of
    /// plane c is read bilinearly at `recordedPoint(ofCorrected:plane: c)`, clamped to the image (a barrel lens's
    /// correction reads inside it, losing the recorded border, as a phone's distortion correction does).
    /// Images of another size or channel count, or narrower/shorter than 2 or 32,000 pixels or more a side, come back
    /// unchanged (`RadialWarp.apply`).
    public func corrected(_ image: Raster<UInt8>) -> Raster<UInt8> {
        guard let warp = correction(for: image.size, channels: image.channels) else { return image }
        return warp.apply(image)
    }

    /// The same for linear Float RGB.
    public func corrected(_ image: Raster<Float>) -> Raster<Float> {
        guard let warp = correction(for: image.size, channels: image.channels) else { return image }
        return warp.apply(image)
    }

    /// The per-plane resampling that corrects an image of `imageSize` with `channels` (1: the green plane), nil when
    /// there is nothing to correct or the image is not this lens's.
    func correction(for imageSize: Size, channels: Int) -> RadialWarp? {
        guard hasWarp, imageSize == size, channels == 3 || channels == 1 else { return nil }
        return RadialWarp(center: center, normalisingRadius: normalisingRadius, planes: channels) { plane, r in
            Self.factor(coefficients(plane: channels == 1 ? 1 : plane), r)
        }
    }

    /// For colour plane `plane`, the resampling that reads green where that plane recorded each point: output point p
    /// (in `plane`'s recorded geometry) takes green from the recorded point that shows the same scene point — the
    /// guide a demosaic needs to interpolate that plane's colour differences without the lens's lateral chromatic
    /// aberration in them. Nil when the plane moves as green does, or when it reads green more than `reach` pixels
    /// away somewhere in the image (a demosaic holds only a few rows of context).
    func greenAlignment(plane: Int, within reach: Double = .infinity) -> RadialWarp? {
        let own = coefficients(plane: plane), green = coefficients(plane: 1)
        guard own != green else { return nil }
        func ratio(_ r: Double) -> Double {
            guard r > 0 else { return green[0] / max(1e-6, own[0]) }
            let corrected = Self.correctedRadius(ofRecorded: r, own)
            return corrected * Self.factor(green, corrected) / r
        }
        // The shift at normalised radius r is r · |ratio − 1| radii; the image reaches r = 1 (a corner).
        let largest = (0...256).map { i in Double(i) / 256 * abs(ratio(Double(i) / 256) - 1) }.max() ?? 0
        guard largest * normalisingRadius <= reach else { return nil }
        return RadialWarp(center: center, normalisingRadius: normalisingRadius, planes: 1) { _, r in ratio(r) }
    }

    /// A linear sRGB image of what the sensor saw (ground truth, in the recorded geometry) corrected the way an ISP
    /// with `settings` corrects its photo: vignetting brightened (`correctsLensShading`), then distortion and lateral
    /// chromatic aberration resampled away (`correctsDistortion`) in the camera's own colour planes, as the ISP
    /// does — converted there by the inverse of `cameraToSRGB` (the raw frame's) and back. What a processed photo is
    /// measured against.
    public func correctedLikeISP(_ truth: Raster<Float>, settings: ISPSettings, cameraToSRGB: Matrix3) -> Raster<Float> {
        var out = truth
        if settings.correctsLensShading { out = shadingCorrected(out) }
        if settings.correctsDistortion {
            if out.channels == 3, let toCamera = cameraToSRGB.inverse {
                out = Self.transformed(corrected(Self.transformed(out, by: toCamera)), by: cameraToSRGB)
            } else {
                out = corrected(out)   // no way into the camera's planes: corrected as given
            }
        }
        return out
    }

    /// Each RGB pixel of `image` multiplied by `m`.
    private static func transformed(_ image: Raster<Float>, by m: Matrix3) -> Raster<Float> {
        var out = image
        let e = m.m.map(Float.init)
        out.storage.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            for i in 0..<(image.width * image.height) {
                let r = p[3 * i], g = p[3 * i + 1], b = p[3 * i + 2]
                p[3 * i] = e[0] * r + e[1] * g + e[2] * b
                p[3 * i + 1] = e[3] * r + e[4] * g + e[5] * b
                p[3 * i + 2] = e[6] * r + e[7] * g + e[8] * b
            }
        }
        return out
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
        let lens = scaled(to: map.size), green = coefficients(plane: 1)
        let warp = RadialWarp(center: lens.center, normalisingRadius: lens.normalisingRadius, planes: 1) { _, r in
            r > 0 ? Self.correctedRadius(ofRecorded: r, green) / r : 1 / max(1e-6, green[0])
        }
        return warp.apply(map, nanAware: true)
    }
}
