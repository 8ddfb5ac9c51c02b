import CaptureCore

/// Pinhole geometry of one module read out at one size: effective pixel, focal length in pixels, lens frame.
struct ViewGeometry: Sendable {
    private(set) var width: Int
    private(set) var height: Int
    /// Principal point (the optical axis), pixels from the top-left corner: the centre, or off it in a window.
    private(set) var cx: Double
    private(set) var cy: Double
    /// Effective pixel pitch at this readout, µm.
    let pixelPitch: Double
    /// Effective pixel area over the native pixel area (> 1 for binned readouts).
    let areaFactor: Double
    let focalPixels: Double
    let origin: SIMD3<Double>
    let right: SIMD3<Double>
    let up: SIMD3<Double>
    let forward: SIMD3<Double>
    /// Largest distance from the principal point to a corner of the whole readout, pixels (the lens's radius unit).
    let normalisingRadius: Double
    /// The lens's per-plane radial coefficients (`CameraModule.lensDistortion`) over this readout's half-diagonal.
    let lensRadial: [SIMD4<Double>]
    /// Green plane: where a recorded sensor point's ideal (pinhole) point is, about the principal point; nil for an
    /// ideal lens (rays go straight through the pinhole).
    private var undistortion: RadialWarp?

    init(module: CameraModule, size: Size) {
        width = max(1, size.width)
        height = max(1, size.height)
        cx = Double(width) / 2
        cy = Double(height) / 2
        // Scaled readout that fills the frame (crop when the aspect ratio differs).
        let scale = max(Double(width) / Double(module.nativeSize.width), Double(height) / Double(module.nativeSize.height))
        pixelPitch = module.pixelPitch / scale
        areaFactor = 1 / (scale * scale)
        focalPixels = module.focalLength * 1000 / pixelPitch
        origin = module.lensPosition
        up = SIMD3(0, 1, 0)
        switch module.position {
        case .back: forward = SIMD3(0, 0, 1); right = SIMD3(1, 0, 0)
        case .front: forward = SIMD3(0, 0, -1); right = SIMD3(-1, 0, 0)
        }
        let halfDiagonal = (Double(width * width + height * height)).squareRoot() / 2
        normalisingRadius = halfDiagonal
        // The native sensor's half-diagonal over this readout's, physically: r_native = s · r_readout.
        let native = module.nativeSize
        let s = halfDiagonal * pixelPitch / ((Double(native.width * native.width + native.height * native.height)).squareRoot() / 2 * module.pixelPitch)
        lensRadial = module.lensDistortion.map { LensCorrection.rescaled($0, by: s) }
        if module.hasLensDistortion {
            let green = lensRadial[lensRadial.count == 3 ? 1 : 0]
            undistortion = RadialWarp(center: SIMD2(cx, cy), normalisingRadius: halfDiagonal, planes: 1) { _, recorded in
                recorded > 0 ? LensCorrection.correctedRadius(ofRecorded: recorded, green) / recorded : 1 / max(1e-6, green[0])
            }
        }
    }

    /// Ideal (pinhole) image point of recorded sensor point (x, y), green plane.
    @inline(__always)
    func idealPoint(x: Double, y: Double) -> SIMD2<Double> {
        undistortion?.sourcePoint(of: SIMD2(x, y), plane: 0) ?? SIMD2(x, y)
    }

    /// Recorded sensor point of ideal (pinhole) image point `p`, green plane.
    @inline(__always)
    func recordedPoint(ofIdeal p: SIMD2<Double>) -> SIMD2<Double> {
        guard undistortion != nil else { return p }
        let d = p - SIMD2(cx, cy)
        let r = (d * d).sum().squareRoot() / normalisingRadius
        return SIMD2(cx, cy) + d * LensCorrection.factor(lensRadial[lensRadial.count == 3 ? 1 : 0], r)
    }

    /// The part of this view `width`×`height` pixels from (x, y): the same pixels, pitch and optics.
    func window(x: Int, y: Int, width: Int, height: Int) -> ViewGeometry {
        var copy = self
        copy.width = max(1, width)
        copy.height = max(1, height)
        copy.cx = cx - Double(x)
        copy.cy = cy - Double(y)
        copy.undistortion?.center = SIMD2(copy.cx, copy.cy)
        return copy
    }

    /// Ray direction (forward component 1) through sensor point (x, y) in pixels, (0, 0) the top-left corner: the
    /// lens's green-plane distortion undone, then the pinhole.
    @inline(__always)
    func direction(x: Double, y: Double) -> SIMD3<Double> {
        let p = idealPoint(x: x, y: y)
        let u = (p.x - cx) / focalPixels, v = (p.y - cy) / focalPixels
        return forward + right * u - up * v
    }

    /// Relative illumination cos⁴θ at image point (x, y).
    @inline(__always)
    func cos4(x: Double, y: Double) -> Double {
        let u = (x - cx) / focalPixels, v = (y - cy) / focalPixels
        let c2 = 1 / (1 + u * u + v * v)
        return c2 * c2
    }

    /// Sensor position (pixels, continuous; green plane, the lens's distortion included) of world point `p`, or nil
    /// behind the lens.
    func project(_ p: SIMD3<Double>) -> SIMD2<Double>? {
        let q = p - origin
        let z = (q * forward).sum()
        guard z > 1e-9 else { return nil }
        let u = (q * right).sum() / z, v = (q * up).sum() / z
        return recordedPoint(ofIdeal: SIMD2(cx + u * focalPixels, cy - v * focalPixels))
    }
}
