import CaptureCore

/// Pinhole geometry of one module read out at one size: effective pixel, focal length in pixels, lens frame.
struct ViewGeometry: Sendable {
    let width: Int
    let height: Int
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

    /// Ray direction (forward component 1) through image point (x, y) in pixels, (0, 0) the top-left corner.
    @inline(__always)
    func direction(x: Double, y: Double) -> SIMD3<Double> {
        let u = (x - Double(width) / 2) / focalPixels, v = (y - Double(height) / 2) / focalPixels
        return forward + right * u - up * v
    }

    /// Relative illumination cos⁴θ at image point (x, y).
    @inline(__always)
    func cos4(x: Double, y: Double) -> Double {
        let u = (x - Double(width) / 2) / focalPixels, v = (y - Double(height) / 2) / focalPixels
        let c2 = 1 / (1 + u * u + v * v)
        return c2 * c2
    }

    /// Image position (pixels, continuous) of world point `p`, or nil behind the lens.
    func project(_ p: SIMD3<Double>) -> SIMD2<Double>? {
        let q = p - origin
        let z = (q * forward).sum()
        guard z > 1e-9 else { return nil }
        let u = (q * right).sum() / z, v = (q * up).sum() / z
        return SIMD2(Double(width) / 2 + u * focalPixels, Double(height) / 2 - v * focalPixels)
    }
}
