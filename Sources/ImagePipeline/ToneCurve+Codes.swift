import CaptureCore

extension ToneCurve {
    /// Scene-linear RGB (1.0 = white) → this curve → 16-bit codes, through an interpolated table
    /// (within 0.1 code of the exact curve). Values outside 0…1 clip.
    public func render16(_ linear: Raster<Float>) -> Raster<UInt16> {
        let n = 16_384
        let table = (0...n).map { apply(Float($0) / Float(n)) * 65_535 }
        var out = Raster<UInt16>(width: linear.width, height: linear.height, channels: linear.channels, repeating: 0)
        let rowCount = linear.width * linear.channels
        guard rowCount > 0, linear.height > 0 else { return out }
        table.withUnsafeBufferPointer { table in
            linear.storage.withUnsafeBufferPointer { src in
                out.storage.withUnsafeMutableBufferPointer { dst in
                    // Each band writes only its own rows of `dst`.
                    nonisolated(unsafe) let dst = dst
                    Parallel.forEachBand(height: linear.height, bandHeight: 64) { rows in
                        for i in rows.lowerBound * rowCount ..< rows.upperBound * rowCount {
                            let v = src[i].isNaN ? 0 : min(max(src[i], 0), 1) * Float(n)
                            let k = min(Int(v), n - 1)
                            let f = v - Float(k)
                            dst[i] = UInt16(min(65_535, table[k] + f * (table[k + 1] - table[k]) + 0.5))
                        }
                    }
                }
            }
        }
        return out
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
