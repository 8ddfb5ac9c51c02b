/// Stage 5: linear RGB → tone curve and transfer function → 8-bit interleaved RGB, through a table.
struct ToneStage {
    private let table: [UInt8]
    private let scale: Float

    init(curve: ToneCurve) {
        table = curve.table8()
        scale = Float(ToneCurve.tableSize - 1)
    }

    /// Encodes `width` pixels of three planar rows into interleaved RGB bytes.
    @inline(__always)
    func run(r: UnsafePointer<Float>, g: UnsafePointer<Float>, b: UnsafePointer<Float>,
             into out: UnsafeMutablePointer<UInt8>, width: Int) {
        let s = scale
        table.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for x in 0..<width {
                out[3 * x] = t[Int(min(max(r[x], 0), 1) * s + 0.5)]
                out[3 * x + 1] = t[Int(min(max(g[x], 0), 1) * s + 0.5)]
                out[3 * x + 2] = t[Int(min(max(b[x], 0), 1) * s + 0.5)]
            }
        }
    }
}
