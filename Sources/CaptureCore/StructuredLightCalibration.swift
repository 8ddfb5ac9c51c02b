/// Geometry of a structured-light depth sensor (TrueDepth class): a dot projector and an infrared
/// camera side by side, and where the colour camera sits relative to the infrared camera.
/// Disparity against the reference image (the pattern on a plane at `referenceDistance`) is
/// d = f·B·(1/Z − 1/Z₀) pixels; Z follows from it.
public struct StructuredLightCalibration: Sendable, Hashable {
    /// The infrared camera's pinhole calibration (its image size is `referenceDimensions`).
    public var infrared: CameraCalibration
    /// Projector centre minus infrared camera centre along the image's +x axis, metres (signed).
    public var baseline: Double
    /// Distance of the plane the reference image was recorded on, metres.
    public var referenceDistance: Double
    /// The colour camera's calibration, with `translation` = the infrared camera's origin in the
    /// colour camera's frame (metres), for registering depth to the colour image.
    public var color: CameraCalibration
    /// Nearest and farthest distances the sensor is specified for, metres: a decoder searches only the
    /// disparities between them, so surfaces outside report no depth.
    public var workingRange: ClosedRange<Double>

    public init(infrared: CameraCalibration, baseline: Double, referenceDistance: Double, color: CameraCalibration,
                workingRange: ClosedRange<Double> = 0.2...4.0) {
        self.infrared = infrared
        self.baseline = baseline
        self.referenceDistance = referenceDistance
        self.color = color
        self.workingRange = workingRange
    }

    /// The disparity (pixels of `infrared`, observed x − reference x) of a surface at depth `z` metres:
    /// d = f·B·(1/Z − 1/Z₀).
    public func disparity(depth z: Double) -> Double {
        infrared.focalLength.x * baseline * (1 / z - 1 / referenceDistance)
    }

    /// The depth (metres) of disparity `d`: Z = f·B / (f·B/Z₀ + d); nil when the denominator is not positive
    /// (beyond infinity).
    public func depth(disparity d: Double) -> Double? {
        let fb = infrared.focalLength.x * baseline
        let denominator = fb / referenceDistance + d
        guard denominator * fb > 0 else { return nil }
        return fb / denominator
    }
}
