/// OpenCapture addition: what the simulated sensor really saw for a photo, for measuring the
/// pipeline. `linearSRGB` is interleaved RGB in linear sRGB primaries, scaled so 1.0 is sensor
/// saturation for a neutral surface at the photo's exposure, before noise, clipping and tone
/// mapping; `depth` is metres per pixel. Both at the sensor readout size of the photo.
public struct SimulationGroundTruth: Sendable {
    public let width: Int
    public let height: Int
    public let linearSRGB: [Float]
    public let depth: [Float]
    /// EV the processed photo was brightened by: auto exposure's highlight headroom, which the RAW photo records as
    /// its DNG BaselineExposure (`ImageSignalProcessor.renderReference(_:baselineExposure:)` takes it).
    public let baselineExposure: Double

    public init(width: Int, height: Int, linearSRGB: [Float], depth: [Float], baselineExposure: Double = 0) {
        self.width = width
        self.height = height
        self.linearSRGB = linearSRGB
        self.depth = depth
        self.baselineExposure = baselineExposure
    }
}
