import CaptureCore

/// An 8-bit 4:2:0 picture in full-range BT.601 Y′CbCr (the JPEG/HEIC convention, nclx matrix
/// 6: `matrix`), with chroma sited at the centre of each 2×2 block. Width and height are even. The
/// conversion itself is CaptureCore's `YCbCr420`, the same one `PixelBuffer.yCbCr420` uses.
struct YCbCrPlanes {
    /// The matrix the planes are in (HEIC's, as JPEG's).
    static let matrix = YCbCrMatrix.bt601
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
        var y = [UInt8](repeating: 0, count: width * height)
        var cb = [UInt8](repeating: 0, count: (width / 2) * (height / 2))
        var cr = cb
        y.withUnsafeMutableBufferPointer { yp in
            cb.withUnsafeMutableBufferPointer { cbp in
                cr.withUnsafeMutableBufferPointer { crp in
                    let destination = YCbCr420.Destination(y: yp.baseAddress!, yRowStride: width, cb: cbp.baseAddress!,
                                                           cr: crp.baseAddress!, chromaRowStride: width / 2, chromaStep: 1)
                    YCbCr420.convert(image, x0: x0, y0: y0, width: width, height: height, range: .full,
                                     matrix: YCbCrPlanes.matrix, into: destination)
                }
            }
        }
        self.y = y
        self.cb = cb
        self.cr = cr
    }
}
