import CaptureCore

/// Moves a depth map from one camera's view into another's (TrueDepth's infrared camera → the
/// colour camera): every measured pixel is lifted to 3-D, carried into the target camera's frame and
/// projected there, splatted over the 2×2 target pixels around where it lands (which closes the
/// one-pixel cracks a slight magnification leaves) with a z-buffer, so the nearest surface wins.
public enum DepthRegistration {
    /// Depth (m) seen from `source` re-projected into `target` (its referenceDimensions); nearest surface wins; NaN holes.
    ///
    /// `depth` may be at any size with `source`'s field of view (the calibration is scaled to it). Both
    /// calibrations' extrinsics are relative to the same reference camera (a point X in the reference
    /// frame is R·X + t in a camera's frame); distortion tables, when present, are honoured.
    public static func register(depth: Raster<Float>, from source: CameraCalibration, to target: CameraCalibration)
        -> Raster<Float> {
        let tw = max(0, target.referenceDimensions.width), th = max(0, target.referenceDimensions.height)
        var out = [Float](repeating: .infinity, count: tw * th)
        guard depth.channels == 1, depth.width > 0, depth.height > 0, tw > 0, th > 0,
              source.referenceDimensions.width > 0, source.focalLength.x > 0, source.focalLength.y > 0,
              target.focalLength.x > 0, target.focalLength.y > 0 else {
            return Raster(width: tw, height: th, channels: 1, repeating: .nan)
        }
        let s = source.scaled(to: depth.size)
        // Source camera frame → reference frame → target frame: X_t = R_t·R_sᵀ·(X_s − t_s) + t_t.
        let sourceTransposed = Matrix3((0..<3).map { c in (0..<3).map { r in s.rotation[r, c] } })
        let rotation = target.rotation * sourceTransposed
        let offset = target.translation - rotation * s.translation
        let r0 = SIMD3(rotation[0, 0], rotation[0, 1], rotation[0, 2])
        let r1 = SIMD3(rotation[1, 0], rotation[1, 1], rotation[1, 2])
        let r2 = SIMD3(rotation[2, 0], rotation[2, 1], rotation[2, 2])
        let undistortSource = s.inverseLensDistortionLookupTable.count > 1
        let distortTarget = target.lensDistortionLookupTable.count > 1
        let sw = depth.width
        out.withUnsafeMutableBufferPointer { buffer in
            let z = buffer.baseAddress!
            depth.storage.withUnsafeBufferPointer { values in
                for y in 0..<depth.height {
                    for x in 0..<sw {
                        let d = Double(values[y * sw + x])
                        guard d.isFinite, d > 0 else { continue }
                        var p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                        if undistortSource { p = s.undistort(p) }
                        let ray = SIMD3((p.x - s.principalPoint.x) / s.focalLength.x,
                                        (p.y - s.principalPoint.y) / s.focalLength.y, 1)
                        let point = ray * d
                        let q = SIMD3((r0 * point).sum(), (r1 * point).sum(), (r2 * point).sum()) + offset
                        guard q.z > 1e-6 else { continue }
                        var image = SIMD2(target.principalPoint.x + target.focalLength.x * q.x / q.z,
                                          target.principalPoint.y + target.focalLength.y * q.y / q.z)
                        if distortTarget { image = target.distort(image) }
                        // The four target pixels whose centres surround the landing point.
                        let fx = image.x - 0.5, fy = image.y - 0.5
                        guard fx > -1, fy > -1, fx < Double(tw), fy < Double(th) else { continue }
                        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                        let value = Float(q.z)
                        for ty in max(0, y0)...min(th - 1, y0 + 1) {
                            for tx in max(0, x0)...min(tw - 1, x0 + 1) where value < z[ty * tw + tx] {
                                z[ty * tw + tx] = value
                            }
                        }
                    }
                }
            }
        }
        for i in out.indices where out[i] == .infinity { out[i] = .nan }
        return Raster(width: tw, height: th, channels: 1, storage: out)
    }
}
