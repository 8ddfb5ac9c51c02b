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
    }

    /// The part of this view `width`×`height` pixels from (x, y): the same pixels, pitch and optics.
    func window(x: Int, y: Int, width: Int, height: Int) -> ViewGeometry {
        var copy = self
        copy.width = max(1, width)
        copy.height = max(1, height)
        copy.cx = cx - Double(x)
        copy.cy = cy - Double(y)
        return copy
    }

    /// Ray direction (forward component 1) through image point (x, y) in pixels, (0, 0) the top-left corner.
    @inline(__always)
    func direction(x: Double, y: Double) -> SIMD3<Double> {
        let u = (x - cx) / focalPixels, v = (y - cy) / focalPixels
        return forward + right * u - up * v
    }

    /// Relative illumination cos⁴θ at image point (x, y).
    @inline(__always)
    func cos4(x: Double, y: Double) -> Double {
        let u = (x - cx) / focalPixels, v = (y - cy) / focalPixels
        let c2 = 1 / (1 + u * u + v * v)
        return c2 * c2
    }

    /// Image position (pixels, continuous) of world point `p`, or nil behind the lens.
    func project(_ p: SIMD3<Double>) -> SIMD2<Double>? {
        let q = p - origin
        let z = (q * forward).sum()
        guard z > 1e-9 else { return nil }
        let u = (q * right).sum() / z, v = (q * up).sum() / z
        return SIMD2(cx + u * focalPixels, cy - v * focalPixels)
    }
}
