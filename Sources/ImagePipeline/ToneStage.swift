/// Stage 5: linear RGB → tone curve and transfer function → 8-bit interleaved RGB, through a table.
struct ToneStage {
    private let table: [UInt8]
    private let scale: Float

    init(curve: ToneCurve) {
        table = curve.table8()
        scale = Float(ToneCurve.tableSize - 1)
    }

    /// Encodes `width` pixels of one planar row into bytes (one channel).
    @inline(__always)
    func run(_ v: UnsafePointer<Float>, into out: UnsafeMutablePointer<UInt8>, width: Int) {
        let s = scale, magic: Float = 8_388_608
        table.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for x in 0..<width { out[x] = t[Int((min(max(v[x], 0), 1) * s + magic).bitPattern & 0x3FFF)] }
        }
    }

    /// Encodes `width` pixels of three planar rows into interleaved RGB bytes.
    @inline(__always)
    func run(r: UnsafePointer<Float>, g: UnsafePointer<Float>, b: UnsafePointer<Float>,
             into out: UnsafeMutablePointer<UInt8>, width: Int) {
        let s = scale
        // (The mask assumes ToneCurve.tableSize == 16 384.) Adding 2^23 to a value in 0…2^22 leaves round-to-nearest(value) in the low mantissa
        // bits: a branch-free, trap-free float → index conversion.
        let magic: Float = 8_388_608
        table.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for x in 0..<width {
                let ri = Int((min(max(r[x], 0), 1) * s + magic).bitPattern & 0x3FFF)
                let gi = Int((min(max(g[x], 0), 1) * s + magic).bitPattern & 0x3FFF)
                let bi = Int((min(max(b[x], 0), 1) * s + magic).bitPattern & 0x3FFF)
                out[3 * x] = t[ri]
                out[3 * x + 1] = t[gi]
                out[3 * x + 2] = t[bi]
            }
        }
    }
}
