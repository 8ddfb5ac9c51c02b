/// The one RGB → 8-bit 4:2:0 Y′CbCr conversion (BT.601 matrix as JPEG and HEIC use it), shared by
/// `PixelBuffer.yCbCr420` (bi-planar, full or video range) and the HEIF encoder (planar, full range).
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

    /// Converts the `width`×`height` window of `image` at (`x0`, `y0`) into `destination`, which
    /// holds `width`×`height` luma and ⌈width/2⌉×⌈height/2⌉ chroma samples. `image` has 1 (grey),
    /// 3 (RGB) or 4 (RGBA, alpha ignored) channels. `parallel` splits the rows into bands.
    public static func convert(_ image: Raster<UInt8>, x0: Int = 0, y0: Int = 0, width: Int, height: Int,
                               range: Range, into destination: Destination, parallel: Bool = false) {
        guard width > 0, height > 0, image.width > 0, image.height > 0 else { return }
        let channels = image.channels
        let g = channels >= 3 ? 1 : 0, b = channels >= 3 ? 2 : 0
        let video = range == .video
        // Luma: Y = (kr·R + kg·G + kb·B)·scale + offset, coefficients × 2^16.
        let ys = video ? 219.0 / 255 : 1, cs = video ? 224.0 / 255 : 1
        func k(_ v: Double, _ s: Double, _ bits: Double) -> Int { Int((v * s * bits).rounded()) }
        let kr = k(0.299, ys, 65536), kg = k(0.587, ys, 65536), kb = k(0.114, ys, 65536)
        let yBias = (video ? 16 << 16 : 0) + 32768
        // Chroma from four-pixel sums: coefficients × 2^16, result scaled by 2^-18.
        // (libjpeg's jccolor.c constants, so full-range output matches libjpeg-turbo's own conversion.)
        let ur = k(-0.16874, cs, 65536), ug = k(-0.33126, cs, 65536), ub = k(0.5, cs, 65536)
        let vr = k(0.5, cs, 65536), vg = k(-0.41869, cs, 65536), vb = k(-0.08131, cs, 65536)
        let cBias = (128 << 18) + (1 << 17)
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let columns = (0..<(2 * cw)).map { min(x0 + min($0, width - 1), image.width - 1) * channels }
        let rowStride = image.rowStride
        let d = destination
        image.storage.withUnsafeBufferPointer { src in
            func rows(_ band: Swift.Range<Int>) {
                for j in band {
                    let r0 = min(y0 + min(2 * j, height - 1), image.height - 1) * rowStride
                    let r1 = min(y0 + min(2 * j + 1, height - 1), image.height - 1) * rowStride
                    let out0 = d.y + 2 * j * d.yRowStride
                    let out1: UnsafeMutablePointer<UInt8>? = 2 * j + 1 < height ? out0 + d.yRowStride : nil
                    let cbRow = d.cb + j * d.chromaRowStride, crRow = d.cr + j * d.chromaRowStride
                    for i in 0..<cw {
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
