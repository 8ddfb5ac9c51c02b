import CaptureCore

/// An 8-bit 4:2:0 picture in full-range BT.601 Y′CbCr (the JPEG/HEIC convention, nclx matrix
/// 6), with chroma sited at the centre of each 2×2 block. Width and height are even.
struct YCbCrPlanes {
    let width: Int
    let height: Int
    var y: [UInt8]
    var cb: [UInt8]
    var cr: [UInt8]

    /// The `width`×`height` window of `image` whose top-left pixel is (`x0`, `y0`); pixels
    /// beyond the image repeat its last column and row. `image` has 1, 3 or 4 channels
    /// (gray, RGB, RGBA with alpha ignored).
    init(_ image: Raster<UInt8>, x0: Int, y0: Int, width: Int, height: Int) {
        precondition(width % 2 == 0 && height % 2 == 0 && width > 0 && height > 0)
        self.width = width
        self.height = height
        let cw = width / 2, ch = height / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var cb = [UInt8](repeating: 0, count: cw * ch)
        var cr = [UInt8](repeating: 0, count: cw * ch)
        let channels = image.channels
        let g = channels >= 3 ? 1 : 0, b = channels >= 3 ? 2 : 0
        // Byte offset of each column within a row, clamped to the image.
        let columns = (0..<width).map { min(x0 + $0, image.width - 1) * channels }
        let rowStride = image.rowStride
        image.storage.withUnsafeBufferPointer { src in
            y.withUnsafeMutableBufferPointer { yp in
                cb.withUnsafeMutableBufferPointer { cbp in
                    cr.withUnsafeMutableBufferPointer { crp in
                        for j in 0..<ch {
                            let r0 = min(y0 + 2 * j, image.height - 1) * rowStride
                            let r1 = min(y0 + 2 * j + 1, image.height - 1) * rowStride
                            let out0 = 2 * j * width, out1 = out0 + width
                            for i in 0..<cw {
                                let c0 = columns[2 * i], c1 = columns[2 * i + 1]
                                var rs = 0, gs = 0, bs = 0
                                @inline(__always) func luma(_ p: Int, _ o: Int) {
                                    let r = Int(src[p]), gg = Int(src[p + g]), bb = Int(src[p + b])
                                    yp[o] = UInt8(truncatingIfNeeded: (19595 * r + 38470 * gg + 7471 * bb + 32768) >> 16)
                                    rs += r; gs += gg; bs += bb
                                }
                                luma(r0 + c0, out0 + 2 * i)
                                luma(r0 + c1, out0 + 2 * i + 1)
                                luma(r1 + c0, out1 + 2 * i)
                                luma(r1 + c1, out1 + 2 * i + 1)
                                // Sums of four pixels: scale by 2^-18; the offset keeps it positive.
                                let bias = (128 << 18) + (1 << 17)
                                let u = (-11059 * rs - 21709 * gs + 32768 * bs + bias) >> 18
                                let v = (32768 * rs - 27439 * gs - 5329 * bs + bias) >> 18
                                cbp[j * cw + i] = UInt8(clamping: u)
                                crp[j * cw + i] = UInt8(clamping: v)
                            }
                        }
                    }
                }
            }
        }
        self.y = y
        self.cb = cb
        self.cr = cr
    }
}
