import CaptureCore
import Foundation

extension ToneCurve {
    /// The curve (after the highlight roll-off for `headroom` EV, as `ToneStage` applies it) sampled over linear
    /// 0…2^headroom for 16-bit codes, interpolated linearly: within 0.1 code of the exact curve.
    struct Table16 {
        private let codes: [Float]
        private let top: Float, scale: Float, last: Int

        init(curve: ToneCurve, headroom: Double) {
            let top = Float(pow(2, max(headroom, 0)))
            // 16 K entries per unit of linear range: the same density over 0…1 whatever the headroom.
            let n = 16_384 * Int(top.rounded(.up))
            codes = (0...n).map { curve.apply(ToneCurve.rollOff(Float($0) / Float(n) * top, headroom: Float(headroom))) * 65_535 }
            self.top = top
            scale = Float(n) / top
            last = n - 1
        }

        /// The 16-bit code for a linear value (NaN counts as black; values beyond the range clip).
        @inline(__always)
        func code(_ linear: Float) -> UInt16 {
            let v = linear.isNaN ? 0 : min(max(linear, 0), top) * scale
            let k = min(Int(v), last), f = v - Float(k)
            return codes.withUnsafeBufferPointer { t in UInt16(min(65_535, t[k] + f * (t[k + 1] - t[k]) + 0.5)) }
        }
    }

    /// The inverse of this curve for each 8-bit code: code → scene-linear value (1.0 = white).
    /// `.linear` is the sRGB decode; `.standard` is found by bisection (the curve is monotonic).
    public var inverseTable8: [Float] {
        switch self {
        case .linear: return SRGBTransfer.decodeTable8
        case .standard: return ToneCurve.standardInverse8
        }
    }

    private static let standardInverse8: [Float] = (0..<256).map { code in
        let target = Float(code) / 255
        var lo: Float = 0, hi: Float = 1
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if ToneCurve.standard.apply(mid) < target { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// 8-bit codes rendered with this curve → scene-linear values, through `inverseTable8`.
    public func linearize(_ image: Raster<UInt8>) -> Raster<Float> {
        let lut = inverseTable8
        return Raster(width: image.width, height: image.height, channels: image.channels,
                      storage: image.storage.map { lut[Int($0)] })
    }
}
