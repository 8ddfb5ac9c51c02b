import CaptureCore

/// Resampling between camera geometries: the step that turns a calibrated camera's image into the
/// ideal, rotated pinhole view a stereo matcher expects (epipolar lines along rows).
public enum StereoRectifier {
    /// `image` (1 ch) taken through `source` resampled into the ideal pinhole geometry of `target`
    /// (size target.referenceDimensions; rotation applied, source distortion removed; NaN outside).
    ///
    /// Each target pixel centre is turned into a ray in the target camera, carried into the source
    /// camera by the two calibrations' rotations (relative to the same reference camera; the
    /// translation does not move a ray's direction), projected with the source intrinsics,
    /// distorted with the source's lens table, and read bilinearly. `image` may be any size with
    /// the source's field of view (its intrinsics are scaled to it).
    public static func resample(_ image: Raster<Float>, from source: CameraCalibration, into target: CameraCalibration) -> Raster<Float> {
        let size = target.referenceDimensions
        var out = Raster<Float>(width: max(0, size.width), height: max(0, size.height), repeating: .nan)
        guard size.width > 0, size.height > 0, image.width > 0, image.height > 0, image.channels == 1,
              source.referenceDimensions.width > 0, source.referenceDimensions.height > 0 else { return out }
        // Target camera → reference → source: R_s · R_tᵀ (rotations are orthonormal).
        let rt = target.rotation, rs = source.rotation
        var transposed = Matrix3.identity
        for r in 0..<3 { for c in 0..<3 { transposed[r, c] = rt[c, r] } }
        let toSource = rs * transposed
        let scale = SIMD2(Double(image.width) / Double(source.referenceDimensions.width),
                          Double(image.height) / Double(source.referenceDimensions.height))
        let w = image.width, h = image.height
        let width = size.width
        image.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                nonisolated(unsafe) let src = src, dst = dst
                // Each band writes only its own rows of `out`.
                Parallel.forEachBand(height: size.height, bandHeight: 32) { rows in
                    for v in rows {
                        for u in 0..<width {
                            let ray = SIMD3((Double(u) + 0.5 - target.principalPoint.x) / target.focalLength.x,
                                            (Double(v) + 0.5 - target.principalPoint.y) / target.focalLength.y, 1)
                            let r = toSource * ray
                            guard r.z > 1e-9 else { continue }
                            let ideal = SIMD2(source.focalLength.x * r.x / r.z + source.principalPoint.x,
                                              source.focalLength.y * r.y / r.z + source.principalPoint.y)
                            let p = source.distort(ideal) * scale - 0.5
                            guard p.x >= -0.5, p.y >= -0.5, p.x <= Double(w) - 0.5, p.y <= Double(h) - 0.5 else { continue }
                            let x0 = max(0, min(w - 1, Int(p.x.rounded(.down)))), y0 = max(0, min(h - 1, Int(p.y.rounded(.down))))
                            let x1 = min(w - 1, x0 + 1), y1 = min(h - 1, y0 + 1)
                            let fx = Float(max(0, min(1, p.x - Double(x0)))), fy = Float(max(0, min(1, p.y - Double(y0))))
                            let top = src[y0 * w + x0] * (1 - fx) + src[y0 * w + x1] * fx
                            let bottom = src[y1 * w + x0] * (1 - fx) + src[y1 * w + x1] * fx
                            dst[v * width + u] = top * (1 - fy) + bottom * fy
                        }
                    }
                }
            }
        }
        return out
    }
}
