/// Cached per-readout-size render for the sensor: camera-RGB photo-electron rate per pixel at base ISO
/// (optics, vignetting, lens blur and pixel area included) and the flash-to-ambient ratio per candela.
final class SensorPlanes: Sendable {
    let width: Int
    let height: Int
    /// Interleaved camera R, G, B electrons per second (before PRNU).
    let rate: [Float]
    /// Flash-lit over ambient radiance for a 1 cd flash at the lens.
    let flashRatio: [Float]

    init(width: Int, height: Int, rate: [Float], flashRatio: [Float]) {
        self.width = width
        self.height = height
        self.rate = rate
        self.flashRatio = flashRatio
    }
}

/// Cached scene view at one size: linear sRGB radiance (cd/m²), flash luminance per candela and z-depth (m).
final class RadianceView: Sendable {
    let width: Int
    let height: Int
    let radiance: [Float]
    let flashLuminance: [Float]
    let depth: [Float]

    init(width: Int, height: Int, radiance: [Float], flashLuminance: [Float], depth: [Float]) {
        self.width = width
        self.height = height
        self.radiance = radiance
        self.flashLuminance = flashLuminance
        self.depth = depth
    }
}
