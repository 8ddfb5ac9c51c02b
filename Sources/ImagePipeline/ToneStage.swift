import Foundation
/// Stage 5: linear RGB → tone curve and transfer function → 8-bit interleaved RGB, through a table.
struct ToneStage {
    private let table: [UInt8]
    private let scale: Float
    /// Linear value the table's last entry stands for (1, or 2^headroom) and the index mask (table size − 1).
    private let top: Float
    private let mask: UInt32

    /// `headroom`: EV the frame was brightened by (`RawImage.baselineExposure`); above 0 the table spans
    /// 0…2^headroom through `ToneCurve.rollOff` instead of clipping at 1.
    init(curve: ToneCurve, headroom: Double = 0) {
        if headroom > 0 {
            table = curve.table8(headroom: headroom)
            top = Float(pow(2, headroom))
            mask = UInt32(ToneCurve.headroomTableSize - 1)
        } else {
            table = curve.table8()
            top = 1
            mask = UInt32(ToneCurve.tableSize - 1)
        }
        scale = Float(mask) / top
    }

    /// Encodes `width` pixels of one planar row into bytes (one channel).
    @inline(__always)
    func run(_ v: UnsafePointer<Float>, into out: UnsafeMutablePointer<UInt8>, width: Int) {
        let s = scale, magic: Float = 8_388_608, top = top, mask = mask
        table.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for x in 0..<width { out[x] = t[Int((min(max(v[x], 0), top) * s + magic).bitPattern & mask)] }
        }
    }

    /// Encodes `width` pixels of three planar rows into interleaved RGB bytes.
    @inline(__always)
    func run(r: UnsafePointer<Float>, g: UnsafePointer<Float>, b: UnsafePointer<Float>,
             into out: UnsafeMutablePointer<UInt8>, width: Int) {
        let s = scale, top = top, mask = mask
        // Adding 2^23 to a value in 0…2^22 leaves round-to-nearest(value) in the low mantissa bits: a branch-free,
        // trap-free float → index conversion (the table sizes are powers of two, so `mask` keeps just the index).
        let magic: Float = 8_388_608
        table.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for x in 0..<width {
                let ri = Int((min(max(r[x], 0), top) * s + magic).bitPattern & mask)
                let gi = Int((min(max(g[x], 0), top) * s + magic).bitPattern & mask)
                let bi = Int((min(max(b[x], 0), top) * s + magic).bitPattern & mask)
                out[3 * x] = t[ri]
                out[3 * x + 1] = t[gi]
                out[3 * x + 2] = t[bi]
            }
        }
    }
}
