import CaptureCore
import Foundation

/// The TrueDepth structured-light sensor beside the front colour camera: a 940 nm dot projector
/// (≈30 000 pseudo-random dots) and an infrared camera (640×480, about the colour camera's field of
/// view) 2.5 cm apart along the phone's x axis, looking into `scene` like `CameraModule.frontTrueDepth`.
///
/// Physics of one infrared frame, per pixel (3×3 rays, box-filtered): the projected pattern where
/// the hit point lands in the projector, times the surface's return albedo·cosθ/(π r²) (the
/// renderer's point-source term; the projector is treated as a point at the infrared lens with the
/// r² taken from the projector — the cosθ is the camera's, an approximation worth < 1 % here), zero
/// where the projector's ray is blocked (projector shadow); plus ambient infrared from the scene's
/// radiance (lighting-dependent); then PRNU, shot noise, read noise, 10-bit quantisation and
/// saturation. The scene's visible-light luminance albedo stands in for the 940 nm reflectance.
/// Dark or distant surfaces therefore return weak patterns (the wall at 2 m ≈ 20× weaker than the
/// face at 0.5 m).
public struct TrueDepthRig: Sendable {
    /// The world in view.
    public let scene: SimulatedScene
    /// Device seed: the infrared sensor's fixed-pattern noise derives from it.
    public let seed: UInt64
    /// Geometry for decoding: infrared camera at 640×480, projector baseline, reference plane, and
    /// the colour camera (`frontTrueDepth` read out at 640×480) relative to the infrared camera.
    public var calibration: StructuredLightCalibration

    /// Infrared readout size.
    public static let infraredSize = Size(width: 640, height: 480)
    /// Size of the colour calibration in `calibration.color` (4:3, like `frontTrueDepth`'s 3088×2320).
    public static let colorCalibrationSize = Size(width: 640, height: 480)
    /// Number of projected dots.
    public static let dotCount = 30_000
    /// Projector wavelength, nanometres (the sensor's band-pass).
    public static let wavelength = 940.0
    /// Projector centre minus infrared lens centre along the infrared image's +x axis, metres.
    public static let baseline = 0.025
    /// Distance of the plane the reference image is recorded on, metres.
    public static let referenceDistance = 1.0
    /// Albedo of the reference plane.
    static let referenceAlbedo = 0.5

    /// The infrared camera as a module (sensor figures for a 3 µm global-shutter NIR sensor): 1.73 mm
    /// lens (≈ 58° across, the colour camera's 56° plus margin), 2 cm from the colour lens on the side
    /// away from the projector.
    public static let infraredModule: CameraModule = {
        let front = CameraModule.frontTrueDepth
        return CameraModule(
            name: "TrueDepth Infrared Camera", position: .front, focalLength: 1.73, focalLength35mmEquivalent: 31,
            fNumber: 2.0, pixelPitch: 3.0, nativeSize: infraredSize, cfa: .rggb, bitDepth: 10, blackLevel: 0,
            fullWellElectrons: 8000, readNoiseElectrons: 4, darkCurrentElectronsPerSecond: 10, prnu: 0.01,
            dsnuElectrons: 1, baseISO: 100, isoRange: 100...100, exposureDurationRange: 0.001...0.001,
            hasFlash: false, hasOpticalStabilization: false,
            lensPosition: front.lensPosition + SIMD3(0.02, 0, 0), cameraToSRGB: .identity,
            quantumEfficiency: 0.3, whiteResponse: SIMD3(1, 1, 1))
    }()

    /// Photo-electrons at the infrared sensor per unit of projected pattern × albedo·cosθ/(π r²):
    /// puts a dot's peak on the face at 0.5 m near half the full well.
    static let signalElectrons = 20_000.0
    /// Photo-electrons per cd/m² of visible scene luminance in the 940 nm band during one 1 ms frame.
    static let ambientElectronsPerNit = 0.25
    /// Rays per pixel side (n×n box filter).
    static let supersampling = 3

    let renderer: SceneRenderer
    let geometry: ViewGeometry
    let projectorOrigin: SIMD3<Double>
    let pattern: DotPattern
    let cache: InfraredRenderCache

    /// The rig of the front TrueDepth camera looking into `scene`; `seed` fixes the sensor's
    /// fixed-pattern noise (the dot pattern is the same on every device).
    public init(scene: SimulatedScene, seed: UInt64) {
        self.scene = scene
        self.seed = seed
        renderer = SceneRenderer(scene: scene)
        let ir = TrueDepthRig.infraredModule
        geometry = ViewGeometry(module: ir, size: TrueDepthRig.infraredSize)
        projectorOrigin = geometry.origin + geometry.right * TrueDepthRig.baseline
        // Projector field: the infrared view (±0.555 × ±0.416) plus the parallax at 0.2 m on the near side.
        let halfField = SIMD2(0.70, 0.48)
        pattern = DotPattern(count: TrueDepthRig.dotCount, halfField: halfField, focal: 2 * geometry.focalPixels,
                             sigma: 0.9, seed: 0x7D07_DA7E_0940)
        cache = InfraredRenderCache()
        let colorGeometry = ViewGeometry(module: .frontTrueDepth, size: TrueDepthRig.colorCalibrationSize)
        var color = TrueDepthRig.pinholeCalibration(colorGeometry)
        color.translation = colorGeometry.cameraFrame(geometry.origin)
        calibration = StructuredLightCalibration(infrared: TrueDepthRig.pinholeCalibration(geometry),
                                                 baseline: TrueDepthRig.baseline,
                                                 referenceDistance: TrueDepthRig.referenceDistance, color: color)
    }

    /// Pinhole calibration of a readout (no distortion, principal point at the centre).
    static func pinholeCalibration(_ g: ViewGeometry) -> CameraCalibration {
        CameraCalibration(focalLength: SIMD2(g.focalPixels, g.focalPixels),
                          principalPoint: SIMD2(Double(g.width) / 2, Double(g.height) / 2),
                          referenceDimensions: Size(width: g.width, height: g.height), pixelSize: g.pixelPitch / 1000)
    }

    /// The pattern recorded on a flat plane of albedo 0.5 facing the sensor at `referenceDistance`, as a
    /// factory calibration averages it: noise-free, in the same units as `captureInfrared` (0…1 of full scale).
    public func referenceImage() -> Raster<Float> {
        let electrons = cache.reference { render(plane: calibration.referenceDistance) }
        let fullWell = Float(TrueDepthRig.infraredModule.fullWellElectrons), white = Float((1 << 10) - 1)
        let values = electrons.map { (min($0, fullWell) / fullWell * white).rounded() / white }
        return Raster(width: geometry.width, height: geometry.height, channels: 1, storage: values)
    }

    /// One infrared frame with the projector on (0…1 of full scale, 1 channel, 640×480); the same
    /// `seed` gives the same frame.
    public func captureInfrared(seed frameSeed: UInt64) -> Raster<Float> {
        let electrons = cache.scene { render(plane: nil) }
        let module = TrueDepthRig.infraredModule
        let w = geometry.width, h = geometry.height
        let fullWell = Float(module.fullWellElectrons), read = Float(module.readNoiseElectrons)
        let prnu = Float(module.prnu), white = Float((1 << module.bitDepth) - 1)
        let deviceSeed = RandomSource.mix(seed, 0x1F_9A77)
        let noiseSeed = RandomSource.mix(RandomSource.mix(seed, 0x1F_F4A3), frameSeed)
        let table = GaussianTable.values
        var out = [Float](repeating: 0, count: w * h)
        out.withUnsafeMutableBufferPointer { buffer in
            let o = buffer.baseAddress!
            electrons.withUnsafeBufferPointer { e in
                table.withUnsafeBufferPointer { g in
                    Parallel.forEachBandIndexed(height: h, bandHeight: 32) { band, rows in
                        var fixed = NoiseStream(RandomSource(seed: deviceSeed, stream: UInt64(band)))
                        var temporal = NoiseStream(RandomSource(seed: noiseSeed, stream: UInt64(band)))
                        for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
                            let f = fixed.next(), t = temporal.next()
                            let mean = e[i] * (1 + prnu * g[Int(f >> 48)])
                            let shot = mean.squareRoot() * g[Int(t >> 48)]
                            let noise = read * g[Int((t >> 32) & 0xFFFF)]
                            let signal = min(max(mean + shot, 0), fullWell) + noise
                            o[i] = min(max((signal / fullWell * white).rounded(), 0), white) / white
                        }
                    }
                }
            }
        }
        return Raster(width: w, height: h, channels: 1, storage: out)
    }

    /// Expected photo-electrons per infrared pixel: the scene (`plane` nil) or a flat reference plane
    /// at camera depth `plane` (no ambient light).
    func render(plane: Double?) -> [Float] {
        let g = geometry, n = TrueDepthRig.supersampling, o = g.origin, po = projectorOrigin
        let r = renderer, p = pattern
        let signalScale = TrueDepthRig.signalElectrons / Double(n * n)
        let ambientScale = TrueDepthRig.ambientElectronsPerNit / Double(n * n)
        let luma = SceneRenderer.lumaWeights
        let right = g.right, up = g.up, forward = g.forward
        var out = [Float](repeating: 0, count: g.width * g.height)
        out.withUnsafeMutableBufferPointer { buffer in
            let dst = buffer.baseAddress!
            Parallel.forEachBand(height: g.height, bandHeight: 8) { rows in
                for y in rows {
                    for x in 0..<g.width {
                        var signal = 0.0, ambient = 0.0
                        for sy in 0..<n {
                            for sx in 0..<n {
                                let d = g.direction(x: Double(x) + (Double(sx) + 0.5) / Double(n),
                                                    y: Double(y) + (Double(sy) + 0.5) / Double(n))
                                let dLen = (d * d).sum().squareRoot()
                                let hit: SIMD3<Double>, returned: Double, rCamera: Double
                                if let z = plane {
                                    hit = o + d * z
                                    rCamera = z * dLen
                                    returned = TrueDepthRig.referenceAlbedo / dLen / (Double.pi * rCamera * rCamera)
                                } else {
                                    let s = r.trace(origin: o, direction: d)
                                    ambient += (s.radiance * luma).sum()
                                    guard s.flashLuminancePerCandela > 0 else { continue }
                                    rCamera = s.distance
                                    hit = o + d * (s.distance / dLen)
                                    returned = s.flashLuminancePerCandela
                                }
                                let q = hit - po
                                let rProjector2 = (q * q).sum()
                                if plane == nil {
                                    // Projector shadow: something nearer on the projector's ray.
                                    let blocker = r.trace(origin: po, direction: q)
                                    if blocker.distance * blocker.distance < rProjector2 * 0.999 { continue }
                                }
                                let dot = p.sample(right: (q * right).sum(), down: -(q * up).sum(), forward: (q * forward).sum())
                                signal += Double(dot) * returned * (rCamera * rCamera / rProjector2)
                            }
                        }
                        let vignette = g.cos4(x: Double(x) + 0.5, y: Double(y) + 0.5)
                        dst[y * g.width + x] = Float((signal * signalScale + ambient * ambientScale) * vignette)
                    }
                }
            }
        }
        return out
    }
}

extension ViewGeometry {
    /// World point `p` in this camera's frame (x right, y down, z forward in the image), metres.
    func cameraFrame(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let q = p - origin
        return SIMD3((q * right).sum(), -(q * up).sum(), (q * forward).sum())
    }
}
