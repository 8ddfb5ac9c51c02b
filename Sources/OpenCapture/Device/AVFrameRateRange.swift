/// A range of frame rates a format supports (Apple's `AVFrameRateRange`).
///
/// `@unchecked Sendable`: every stored property is an immutable `let`.
public final class AVFrameRateRange: @unchecked Sendable {
    public let minFrameRate: Float64
    public let maxFrameRate: Float64
    public var minFrameDuration: CMTime { CMTime(value: 1, timescale: CMTimeScale(maxFrameRate.rounded())) }
    public var maxFrameDuration: CMTime { CMTime(value: 1, timescale: CMTimeScale(minFrameRate.rounded())) }

    init(minFrameRate: Float64, maxFrameRate: Float64) {
        self.minFrameRate = minFrameRate
        self.maxFrameRate = maxFrameRate
    }
}
