import CaptureCore

/// Samples a planar resampling reads: 16-bit codes and Floats.
protocol PlanarWarpSample: BitwiseCopyable {
    var floatValue: Float { get }
    /// Eight consecutive samples from `p` as Floats.
    static func eight(_ p: UnsafePointer<Self>) -> SIMD8<Float>
}

extension UInt16: PlanarWarpSample {
    @inline(__always) var floatValue: Float { Float(self) }
    @inline(__always) static func eight(_ p: UnsafePointer<UInt16>) -> SIMD8<Float> {
        SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt16>.self)))
    }
}

extension Float: PlanarWarpSample {
    @inline(__always) var floatValue: Float { self }
    @inline(__always) static func eight(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }
}

/// One row of one plane resampled bilinearly from a planar source at a `RadialWarp`'s knots (16.16 fixed point,
/// linear between knots `RadialWarp.knotSpacing` apart), into Floats: the ISP's lens correction of linear camera
/// RGB and its demosaic's chromatic-aberration guides.
enum PlanarWarpRow {
    /// Eight samples from `p` on and their right neighbours, where `total` (6, 7 or 8) columns are crossed in eight
    /// steps: lanes whose `drift` is −1 (+1) read one column to the left (right).
    @_transparent   // (@inline(__always) leaves the specialised generic a call, with the vectors through memory)
    private static func pair<T: PlanarWarpSample>(_ p: UnsafePointer<T>, total: Int32,
                                                  drift: SIMD8<Float>) -> (SIMD8<Float>, SIMD8<Float>) {
        let e0 = T.eight(p), e1 = T.eight(p + 1)
        var left = e0, right = e1
        if total == 6 {
            let behind = drift .< 0
            left.replace(with: T.eight(p - 1), where: behind)
            right.replace(with: e0, where: behind)
        } else if total == 8 {
            let ahead = drift .> 0
            left.replace(with: e1, where: ahead)
            right.replace(with: T.eight(p + 2), where: ahead)
        }
        return (left, right)
    }

    /// Writes `width` samples `bilinear × scale + offset` to `out`. Source row r starts at `source + r × stride`;
    /// positions are clamped to columns [0, `limitX`] and rows `rowLimits` (16.16; the upper bounds 1/65536 inside
    /// the last sample, so its right and lower neighbours exist).
    @_specialize(where T == UInt16)
    @_specialize(where T == Float)
    static func resample<T: PlanarWarpSample>(knotsX: UnsafePointer<Int32>, knotsY: UnsafePointer<Int32>, width w: Int,
                                              source: UnsafePointer<T>, stride: Int, limitX: Int32,
                                              rowLimits: ClosedRange<Int32>, scale: Float = 1, offset: Float = 0,
                                              into out: UnsafeMutablePointer<Float>) {
        let spacing = RadialWarp.knotSpacing
        let unit: Float = 1.0 / 65536
        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        let yLow = rowLimits.lowerBound, yHigh = rowLimits.upperBound
        var x = 0, k = 0
        while x < w {
            let count = min(spacing, w - x)
            let (x0, y0, stepX, stepY) = RadialWarp.segment(knotsX, knotsY, k)
            // Positions are linear along the segment, so its ends bound it.
            let x1 = Int64(x0) + Int64(stepX) * Int64(count - 1), y1 = Int64(y0) + Int64(stepY) * Int64(count - 1)
            let o = out + x
            if count == 8, min(Int64(x0), x1) >= 0, max(Int64(x0), x1) <= Int64(limitX),
               min(Int64(y0), y1) >= Int64(yLow), max(Int64(y0), y1) <= Int64(yHigh) {
                // Inside: eight samples as vectors, no clamps.
                let px = SIMD8(repeating: x0) &+ lanes &* stepX, py = SIMD8(repeating: y0) &+ lanes &* stepY
                let ix = px &>> 16, iy = py &>> 16
                let fx = SIMD8<Float>(px & 0xFFFF) * unit, fy = SIMD8<Float>(py & 0xFFFF) * unit
                // Each row pair blended across at once (few vectors live: SSE has sixteen registers, two per vector).
                var upper: SIMD8<Float>, lower: SIMD8<Float>
                let firstRow = min(iy[0], iy[7]), rows = max(iy[0], iy[7]) &- firstRow
                // Eight steps along a row move seven columns where the lens keeps the scale; where it magnifies or shrinks
                // a little (by up to ⅛ over eight pixels), six or eight, and then each lane's column is its index's or
                // one behind (ahead), from a lane on (the steps are equal). Lane masks from Float compares: integer
                // vector masks compile lane by lane here. Every read stays within the row: the pair reads columns j − 1
                // (six) … j + 8 (+ 1 for eight), and the last column is limitX's + 1.
                let total = ix[7] &- ix[0], j = Int(ix[0])
                if rows <= 1, total >= 6, total <= 8, total != 6 || j >= 1, j + 8 + (total == 8 ? 1 : 0) <= Int(limitX >> 16) + 1 {
                    let drift = SIMD8<Float>(ix &- (SIMD8(repeating: ix[0]) &+ lanes))
                    // The reads are consecutive (but for that one column), on one pair of source rows or, where the row
                    // curves across a source row, on three (each lane picks its pair).
                    let top = source + Int(firstRow) * stride + j, bottom = top + stride
                    let (a, b) = pair(top, total: total, drift: drift)
                    upper = a + (b - a) * fx
                    let (c, d) = pair(bottom, total: total, drift: drift)
                    lower = c + (d - c) * fx
                    if rows == 1 {
                        let shifted = SIMD8<Float>(iy &- firstRow) .> 0.5
                        let (e, f) = pair(bottom + stride, total: total, drift: drift)
                        upper.replace(with: lower, where: shifted)
                        lower.replace(with: e + (f - e) * fx, where: shifted)
                    }
                } else {
                    // Gathered: each lane's own pair of rows and columns, built in registers (a lane at a time
                    // through memory would stall on every store).
                    let offsets = SIMD8<Int>(truncatingIfNeeded: iy) &* stride &+ SIMD8<Int>(truncatingIfNeeded: ix)
                    @inline(__always) func gather(_ base: UnsafePointer<T>) -> SIMD8<Float> {
                        SIMD8(base[offsets[0]].floatValue, base[offsets[1]].floatValue, base[offsets[2]].floatValue,
                              base[offsets[3]].floatValue, base[offsets[4]].floatValue, base[offsets[5]].floatValue,
                              base[offsets[6]].floatValue, base[offsets[7]].floatValue)
                    }
                    let a = gather(source), b = gather(source + 1)
                    upper = a + (b - a) * fx
                    let c = gather(source + stride), d = gather(source + stride + 1)
                    lower = c + (d - c) * fx
                }
                let value = (upper + (lower - upper) * fy) * scale + offset
                UnsafeMutableRawPointer(o).storeBytes(of: value, as: SIMD8<Float>.self)
            } else {
                var px = x0, py = y0
                for i in 0..<count {
                    let sx = min(max(px, 0), limitX), sy = min(max(py, yLow), yHigh)
                    let top = source + Int(sy >> 16) * stride + Int(sx >> 16), bottom = top + stride
                    let fx = Float(sx & 0xFFFF) * unit, fy = Float(sy & 0xFFFF) * unit
                    let a = top[0].floatValue, b = top[1].floatValue, c = bottom[0].floatValue, d = bottom[1].floatValue
                    let upper = a + (b - a) * fx, lower = c + (d - c) * fx
                    o[i] = (upper + (lower - upper) * fy) * scale + offset
                    px &+= stepX
                    py &+= stepY
                }
            }
            x += spacing
            k += 1
        }
    }
}
