import CaptureCore
import Foundation

// Focus optics of a module: thin lens of focal length f and f-number N (entrance pupil A = f/N),
// focused at distance s; the lens position is linear in dioptres (1/s), as a voice-coil focus
// actuator is close to linear in lens travel and lens travel is linear in dioptres for s ≫ f.
extension CameraModule {
    /// Sensor diagonal of `size` pixels of `pitch` µm, mm.
    static func sensorDiagonal(_ size: Size, _ pitch: Double) -> Double {
        let w = Double(size.width) * pitch / 1000, h = Double(size.height) * pitch / 1000
        return (w * w + h * h).squareRoot()
    }

    /// Hyperfocal distance H = f²/(N·c) + f in metres for focal length `focalLength` mm and blur circle `c` mm.
    static func hyperfocalDistance(focalLength f: Double, fNumber: Double, circleOfConfusion c: Double) -> Double {
        (f * f / (fNumber * c) + f) / 1000
    }

    /// The blur circle taken as "acceptably sharp", mm on the sensor: the sensor diagonal / 1500 (the
    /// photographic convention), ≈ 2.1 native pixels on these sensors.
    public var acceptableCircleOfConfusion: Double { CameraModule.sensorDiagonal(nativeSize, pixelPitch) / 1500 }

    /// Focus distance beyond which everything to infinity is acceptably sharp, metres.
    public var hyperfocalDistance: Double {
        CameraModule.hyperfocalDistance(focalLength: focalLength, fNumber: fNumber,
                                        circleOfConfusion: acceptableCircleOfConfusion)
    }

    /// Focus distance, metres, of lens position `lensPosition` (0 = `minimumFocusDistance`, 1 = infinity, linear in
    /// dioptres; clamped to 0…1; NaN counts as 1). A fixed-focus module always answers `minimumFocusDistance`.
    public func focusDistance(lensPosition: Double) -> Double {
        guard supportsAutoFocus else { return minimumFocusDistance }
        let p = lensPosition.isNaN ? 1 : min(max(lensPosition, 0), 1)
        let dioptres = (1 - p) / minimumFocusDistance
        return dioptres > 0 ? 1 / dioptres : .infinity
    }

    /// Lens position (0…1, linear in dioptres) that focuses at `focusDistance` metres; distances nearer than
    /// `minimumFocusDistance` give 0, infinity (and NaN) give 1. A fixed-focus module always answers 0.
    public func lensPosition(focusDistance: Double) -> Double {
        guard supportsAutoFocus else { return 0 }
        guard !focusDistance.isNaN else { return 1 }
        guard focusDistance > minimumFocusDistance else { return 0 }
        return min(max(1 - minimumFocusDistance / focusDistance, 0), 1)
    }

    /// Blur-circle diameter on the sensor, mm, thin lens, for an object at `depth` m with focus at `focusDistance` m:
    /// c = A·f·|z − s| / (z·(s − f)) with A = f/N. Infinite distances take the limits (s = ∞: A·f/z; z = ∞:
    /// A·f/(s − f)); focus nearer than the focal length is clamped just beyond it; depth ≤ 0 or NaN gives 0.
    public func circleOfConfusion(depth: Double, focusDistance: Double) -> Double {
        let f = focalLength, aperture = focalLength / fNumber
        guard depth > 0, !focusDistance.isNaN else { return 0 }
        let s = max(focusDistance * 1000, f * 1.001)
        if depth.isInfinite { return s.isInfinite ? 0 : aperture * f / (s - f) }
        let z = depth * 1000
        if s.isInfinite { return aperture * f / z }
        return aperture * f * abs(z - s) / (z * (s - f))
    }

    /// Calibration of this module read out at `size` (the renderer's own geometry: focal length in pixels of that
    /// readout, principal point at the centre, and the lens's green-plane distortion as Apple's 42-entry lookup tables
    /// and their inverse), positioned relative to `reference` (default self): `rotation` takes the reference
    /// camera's frame to this one's and `translation` is the reference lens centre in this camera's frame, metres
    /// (camera frames x right, y down, z forward; back modules look along the phone's +z, the front one along −z
    /// with x mirrored).
    public func calibration(size: Size, relativeTo reference: CameraModule? = nil) -> CameraCalibration {
        let g = ViewGeometry(module: self, size: size)
        let reference = reference ?? self
        let own = cameraFrame, other = reference.cameraFrame
        let rotation = own * other.transposed
        let translation = own * (reference.lensPosition - lensPosition)
        let centre = SIMD2(Double(g.width) / 2, Double(g.height) / 2)
        let tables = lensCorrection(size: size).lookupTables(count: 42)
        return CameraCalibration(focalLength: SIMD2(g.focalPixels, g.focalPixels), principalPoint: centre,
                                 referenceDimensions: Size(width: g.width, height: g.height), rotation: rotation,
                                 translation: translation, pixelSize: g.pixelPitch / 1000,
                                 lensDistortionLookupTable: tables.forward, inverseLensDistortionLookupTable: tables.inverse,
                                 lensDistortionCenter: centre)
    }

    /// Rotation from the phone frame (x right, y up, z out of the back) to this module's camera frame (x right,
    /// y down, z forward): rows are the camera axes in phone coordinates, from `ViewGeometry`'s axes.
    var cameraFrame: Matrix3 {
        let g = ViewGeometry(module: self, size: Size(width: 1, height: 1))
        return Matrix3([[g.right.x, g.right.y, g.right.z], [-g.up.x, -g.up.y, -g.up.z],
                        [g.forward.x, g.forward.y, g.forward.z]])
    }
}
