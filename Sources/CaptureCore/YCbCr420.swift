/// The one RGB → 8-bit 4:2:0 Y′CbCr conversion, in the matrix asked for (`YCbCrMatrix`: BT.601 as JPEG and HEIC use
/// it, BT.709 for HD video), shared by `PixelBuffer.yCbCr420` (bi-planar, full or video range), the video ISP
/// (`convertRowPair`) and the HEIF encoder (planar, full range).
/// Fixed-point numerics: luma per pixel with 16-bit coefficients rounded half up; chroma from
/// the sum of each 2×2 block (chroma sited at the block centre) with 18-bit scaling. Pixels
/// beyond the image repeat its last column and row.
public enum YCbCr420 {
    /// Full range (0–255, JPEG/JFIF) or video range (luma 16–235, chroma 16–240).
    public enum Range: Sendable {
        case full
        case video
    }

    /// Where the planes go. Cb and Cr are separate planes (`chromaStep` 1) or interleaved
    /// CbCr (`cr` = `cb` + 1, `chromaStep` 2).
    public struct Destination {
        public var y: UnsafeMutablePointer<UInt8>
        public var yRowStride: Int
        public var cb: UnsafeMutablePointer<UInt8>
        public var cr: UnsafeMutablePointer<UInt8>
        public var chromaRowStride: Int
        public var chromaStep: Int

        public init(y: UnsafeMutablePointer<UInt8>, yRowStride: Int, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>,
                    chromaRowStride: Int, chromaStep: Int) {
            self.y = y
            self.yRowStride = yRowStride
            self.cb = cb
            self.cr = cr
            self.chromaRowStride = chromaRowStride
            self.chromaStep = chromaStep
        }
    }

    /// The fixed-point matrix. Luma: Y = (kr·R + kg·G + kb·B + yBias) >> 16 (coefficients × 2^16, scaled to video
    /// range when asked); chroma from four-pixel sums, coefficients × 2^16, result >> 18. Cb = (B − Y) / (2 − 2·Kb),
    /// Cr = (R − Y) / (2 − 2·Kr); BT.601's are libjpeg's jccolor.c constants (those to five places), so full-range
    /// output matches libjpeg-turbo's own conversion. Only the constants differ between matrices.
    struct Coefficients {
        let kr: Int, kg: Int, kb: Int, yBias: Int
        let ur: Int, ug: Int, ub: Int, vr: Int, vg: Int, vb: Int, cBias: Int

        init(_ range: Range, _ matrix: YCbCrMatrix) {
            let video = range == .video
            let ys = video ? 219.0 / 255 : 1, cs = video ? 224.0 / 255 : 1
            func k(_ v: Double, _ s: Double) -> Int { Int((v * s * 65536).rounded()) }
            let w = matrix.lumaWeights
            kr = k(w.x, ys); kg = k(w.y, ys); kb = k(w.z, ys)
            yBias = (video ? 16 << 16 : 0) + 32768
            let (cbR, cbG, crG, crB) = matrix == .bt601 ? (-0.16874, -0.33126, -0.41869, -0.08131)
                : (-w.x / (2 - 2 * w.z), -w.y / (2 - 2 * w.z), -w.y / (2 - 2 * w.x), -w.z / (2 - 2 * w.x))
            ur = k(cbR, cs); ug = k(cbG, cs); ub = k(0.5, cs)
            vr = k(0.5, cs); vg = k(crG, cs); vb = k(crB, cs)
            cBias = (128 << 18) + (1 << 17)
        }
    }

    /// Converts chroma row `j` and its two luma rows from planar 8-bit rows (`rgb0` the upper row's R, G, B
    /// planes, `rgb1` the lower's; pass the upper row twice for a last odd row, then `lowerLuma` is false and only
    /// the upper luma row is written). Same numbers as `convert` gives for the same pixels; planar rows let the
    /// loops vectorise (the video pipeline writes its frames this way, two rows at a time).
    public static func convertRowPair(_ rgb0: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
                                      _ rgb1: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
                                      width: Int, chromaRow j: Int, lowerLuma: Bool, range: Range, matrix: YCbCrMatrix,
                                      into d: Destination) {
        guard width > 0 else { return }
        let k = Coefficients(range, matrix)
        let kr = Int32(k.kr), kg = Int32(k.kg), kb = Int32(k.kb), yBias = Int32(k.yBias)
        @inline(__always) func luma(_ rgb: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
                                    _ out: UnsafeMutablePointer<UInt8>) {
            let (r, g, b) = rgb
            for x in 0..<width {
                out[x] = UInt8(truncatingIfNeeded: (kr &* Int32(r[x]) &+ kg &* Int32(g[x]) &+ kb &* Int32(b[x]) &+ yBias) >> 16)
            }
        }
        let out0 = d.y + 2 * j * d.yRowStride
        luma(rgb0, out0)
        if lowerLuma { luma(rgb1, out0 + d.yRowStride) }
        let ur = Int32(k.ur), ug = Int32(k.ug), ub = Int32(k.ub), vr = Int32(k.vr), vg = Int32(k.vg), vb = Int32(k.vb)
        let cBias = Int32(k.cBias)
        let cb = d.cb + j * d.chromaRowStride, cr = d.cr + j * d.chromaRowStride, step = d.chromaStep
        let (r0, g0, b0) = rgb0, (r1, g1, b1) = rgb1
        for i in 0..<((width + 1) / 2) {
            let x0 = 2 * i, x1 = min(2 * i + 1, width - 1)
            let rs = Int32(r0[x0]) &+ Int32(r0[x1]) &+ Int32(r1[x0]) &+ Int32(r1[x1])
            let gs = Int32(g0[x0]) &+ Int32(g0[x1]) &+ Int32(g1[x0]) &+ Int32(g1[x1])
            let bs = Int32(b0[x0]) &+ Int32(b0[x1]) &+ Int32(b1[x0]) &+ Int32(b1[x1])
            cb[i * step] = UInt8(clamping: (ur &* rs &+ ug &* gs &+ ub &* bs &+ cBias) >> 18)
            cr[i * step] = UInt8(clamping: (vr &* rs &+ vg &* gs &+ vb &* bs &+ cBias) >> 18)
        }
    }

    /// Converts the `width`×`height` window of `image` at (`x0`, `y0`) into `destination`, which
    /// holds `width`×`height` luma and ⌈width/2⌉×⌈height/2⌉ chroma samples. `image` has 1 (grey),
    /// 3 (RGB) or 4 (RGBA, alpha ignored) channels. `parallel` splits the rows into bands.
    public static func convert(_ image: Raster<UInt8>, x0: Int = 0, y0: Int = 0, width: Int, height: Int,
                               range: Range, matrix: YCbCrMatrix, into destination: Destination, parallel: Bool = false) {
        guard width > 0, height > 0, image.width > 0, image.height > 0 else { return }
        let channels = image.channels
        let g = channels >= 3 ? 1 : 0, b = channels >= 3 ? 2 : 0
        let k = Coefficients(range, matrix)
        let (kr, kg, kb, yBias) = (k.kr, k.kg, k.kb, k.yBias)
        let (ur, ug, ub, vr, vg, vb, cBias) = (k.ur, k.ug, k.ub, k.vr, k.vg, k.vb, k.cBias)
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let columns = (0..<(2 * cw)).map { min(x0 + min($0, width - 1), image.width - 1) * channels }
        let rowStride = image.rowStride
        let d = destination
        // Blocks whose two columns are both inside the window and the image take the direct path below.
        let wholeBlocks = channels >= 3 ? max(0, min(width, image.width - x0) / 2) : 0
        image.storage.withUnsafeBufferPointer { src in
            let base = src.baseAddress!
            func rows(_ band: Swift.Range<Int>) {
                for j in band {
                    let r0 = min(y0 + min(2 * j, height - 1), image.height - 1) * rowStride
                    let r1 = min(y0 + min(2 * j + 1, height - 1), image.height - 1) * rowStride
                    let out0 = d.y + 2 * j * d.yRowStride
                    let out1: UnsafeMutablePointer<UInt8>? = 2 * j + 1 < height ? out0 + d.yRowStride : nil
                    let cbRow = d.cb + j * d.chromaRowStride, crRow = d.cr + j * d.chromaRowStride
                    // Direct path: 2×2 blocks of RGB(A) pixels, no edge repetition needed.
                    var p0 = base + r0 + x0 * channels, p1 = base + r1 + x0 * channels
                    let lower = out1 ?? out0          // a last odd row writes its luma once (to out0, twice)
                    for i in 0..<wholeBlocks {
                        let ra = Int(p0[0]), ga = Int(p0[1]), ba = Int(p0[2])
                        let rb = Int(p0[channels]), gb = Int(p0[channels + 1]), bb = Int(p0[channels + 2])
                        let rc = Int(p1[0]), gc = Int(p1[1]), bc = Int(p1[2])
                        let rd = Int(p1[channels]), gd = Int(p1[channels + 1]), bd = Int(p1[channels + 2])
                        out0[2 * i] = UInt8(truncatingIfNeeded: (kr * ra + kg * ga + kb * ba + yBias) >> 16)
                        out0[2 * i + 1] = UInt8(truncatingIfNeeded: (kr * rb + kg * gb + kb * bb + yBias) >> 16)
                        lower[2 * i] = UInt8(truncatingIfNeeded: (kr * rc + kg * gc + kb * bc + yBias) >> 16)
                        lower[2 * i + 1] = UInt8(truncatingIfNeeded: (kr * rd + kg * gd + kb * bd + yBias) >> 16)
                        let rs = ra + rb + rc + rd, gs = ga + gb + gc + gd, bs = ba + bb + bc + bd
                        cbRow[i * d.chromaStep] = UInt8(clamping: (ur * rs + ug * gs + ub * bs + cBias) >> 18)
                        crRow[i * d.chromaStep] = UInt8(clamping: (vr * rs + vg * gs + vb * bs + cBias) >> 18)
                        p0 += 2 * channels
                        p1 += 2 * channels
                    }
                    for i in wholeBlocks..<cw {
                        let c0 = columns[2 * i], c1 = columns[2 * i + 1]
                        let second = 2 * i + 1 < width
                        var rs = 0, gs = 0, bs = 0
                        @inline(__always) func luma(_ p: Int, _ out: UnsafeMutablePointer<UInt8>?, _ x: Int, _ write: Bool) {
                            let r = Int(src[p]), gg = Int(src[p + g]), bb = Int(src[p + b])
                            if write, let out { out[x] = UInt8(truncatingIfNeeded: (kr * r + kg * gg + kb * bb + yBias) >> 16) }
                            rs += r; gs += gg; bs += bb
                        }
                        luma(r0 + c0, out0, 2 * i, true)
                        luma(r0 + c1, out0, 2 * i + 1, second)
                        luma(r1 + c0, out1, 2 * i, true)
                        luma(r1 + c1, out1, 2 * i + 1, second)
                        cbRow[i * d.chromaStep] = UInt8(clamping: (ur * rs + ug * gs + ub * bs + cBias) >> 18)
                        crRow[i * d.chromaStep] = UInt8(clamping: (vr * rs + vg * gs + vb * bs + cBias) >> 18)
                    }
                }
            }
            if parallel {
                Parallel.forEachBand(height: ch, bandHeight: 32) { rows($0) }
            } else {
                rows(0..<ch)
            }
        }
    }
}
