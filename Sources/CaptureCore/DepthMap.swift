/// A per-pixel distance map in Apple's terms (`AVDepthData` without the pixel-buffer storage):
/// disparity in 1/m or depth in metres, with NaN where nothing was measured.
public struct DepthMap: Sendable {
    /// What the values mean.
    public enum Kind: Sendable, Hashable {
        /// Inverse distance, 1/m (Apple's `kCVPixelFormatType_Disparity*`).
        case disparity
        /// Distance along the optical axis, metres (Apple's `kCVPixelFormatType_Depth*`).
        case depth
    }

    /// Whether the values are true distances (`absolute`, as TrueDepth measures) or correct only
    /// up to an unknown scale and offset (`relative`, as dual-camera stereo gives).
    public enum Accuracy: Int, Sendable, Hashable {
        case relative = 0, absolute = 1
    }

    /// Apple's `depthDataQuality`.
    public enum Quality: Int, Sendable, Hashable {
        case low = 0, high = 1
    }

    /// One channel; NaN = no measurement (only when `isFiltered` is false).
    public var values: Raster<Float>
    public var kind: Kind
    public var accuracy: Accuracy
    public var quality: Quality
    /// Holes filled and edges smoothed (Apple's `isDepthDataFiltered`).
    public var isFiltered: Bool
    /// The calibration of the camera the map is registered to, at the map's own size or any size
    /// with the same field of view; nil when unknown.
    public var calibration: CameraCalibration?

    public init(values: Raster<Float>, kind: Kind, accuracy: Accuracy, quality: Quality = .high, isFiltered: Bool,
                calibration: CameraCalibration? = nil) {
        self.values = values
        self.kind = kind
        self.accuracy = accuracy
        self.quality = quality
        self.isFiltered = isFiltered
        self.calibration = calibration
    }

    public var size: Size { values.size }

    /// The same map as disparity or depth. Apple converts each value as its reciprocal
    /// (depth = 1 / disparity): 0 ↔ +∞ and NaN stays NaN.
    public func converted(to kind: Kind) -> DepthMap {
        guard kind != self.kind else { return self }
        var copy = self
        copy.kind = kind
        copy.values.storage = values.storage.map { 1 / $0 }
        return copy
    }

    /// The finite values' range, or nil when there is none.
    public var finiteRange: ClosedRange<Float>? {
        var low = Float.infinity, high = -Float.infinity
        for v in values.storage where v.isFinite {
            low = min(low, v)
            high = max(high, v)
        }
        return low <= high ? low...high : nil
    }
}
