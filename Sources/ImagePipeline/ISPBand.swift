import CaptureCore

/// The working memory of one band of rows as it moves through the pipeline stages.
///
/// A band emits the image rows `output`; it holds RGB for `rows` (the output rows plus the
/// context the spatial filters need, clamped to the image) in planar Float planes, and the
/// normalised Bayer samples for `rows` widened by `bayerPad` more rows and columns on each side
/// (reflected at the image border so the CFA phase is kept) for the demosaic.
struct ISPBand {
    /// Image width in pixels.
    let width: Int
    /// Image height in pixels.
    let height: Int
    /// Image rows this band emits.
    let output: Range<Int>
    /// Image rows held in the RGB planes.
    let rows: Range<Int>
    /// Floats per Bayer row: `bayerPad` reflected columns on the left; on the right `bayerPad`
    /// reflected, then zeros (the 8-wide demosaic reads past the row end).
    let bayerStride: Int
    /// Bayer samples: band row j ↔ image row `rows.lowerBound - bayerPad + j`; pixel x at offset `bayerPad + x`.
    let bayer: UnsafeMutablePointer<Float>
    /// Floats per plane row (width rounded up to a multiple of 8).
    let planeStride: Int
    /// Three image planes followed by three scratch planes, each `rows.count × planeStride`.
    private let planes: UnsafeMutablePointer<Float>
    /// Working memory of the demosaic (zeroed once per workspace, then reused band after band).
    let scratch: UnsafeMutablePointer<Float>

    static let bayerPad = 10 + DemosaicStage.guideMargin

    /// Runs `body` with band memory for bands of up to `bandHeight` output rows, passing a function
    /// that lays out a band for given output rows in that memory. One allocation serves many bands
    /// (a fresh multi-megabyte allocation per band costs page faults).
    /// Without `demosaics`, the band has no Bayer samples or demosaic scratch (a pass that starts from RGB).
    static func withWorkspace<R>(width: Int, height: Int, bandHeight: Int, context: Int, demosaics: Bool = true,
                                 _ body: ((Range<Int>) -> ISPBand) -> R) -> R {
        let planeStride = (width + 7) & ~7
        let bayerStride = planeStride + 2 * bayerPad + 16
        let maxRows = bandHeight + 2 * context
        let bayerCount = demosaics ? (maxRows + 2 * bayerPad) * bayerStride : 0
        let planeCount = 6 * maxRows * planeStride
        let scratchCount = demosaics ? DemosaicStage.residualInterpolationScratch(planeStride: planeStride, rows: maxRows) : 0
        // Huge pages where the kernel allows: a worker's 20 MB of fresh scratch faulted in 4 KB at a time held up the
        // first photo's ISP by 4–8 ms.
        let memory = LargeAllocation.allocate(Float.self, capacity: bayerCount + planeCount + scratchCount)
        defer { LargeAllocation.deallocate(memory) }
        (memory + bayerCount + planeCount).initialize(repeating: 0, count: scratchCount)
        return body { output in
            precondition(output.count <= bandHeight, "band taller than its workspace")
            let rows = max(0, output.lowerBound - context)..<min(height, output.upperBound + context)
            return ISPBand(width: width, height: height, output: output, rows: rows,
                           bayerStride: bayerStride, bayer: memory, planeStride: planeStride,
                           planes: memory + bayerCount, scratch: memory + bayerCount + planeCount)
        }
    }

    /// Runs `body` for consecutive bands of `bandHeight` output rows covering the image, on all
    /// cores; each worker reuses one workspace for a run of bands.
    static func forEachBand(width: Int, height: Int, bandHeight: Int, context: Int, demosaics: Bool = true,
                            _ body: (ISPBand) -> Void) {
        let bands = RowBands(height: height, bandHeight: bandHeight)
        let runs = RowBands(height: bands.count, maxCount: Parallel.coreCount * 4)
        Parallel.forEachBand(height: runs.height, bandHeight: runs.bandHeight) { run in
            withWorkspace(width: width, height: height, bandHeight: bands.bandHeight, context: context,
                          demosaics: demosaics) { layout in
                for b in run { body(layout(bands[b])) }
            }
        }
    }

    /// Start of Bayer row j (band-local, 0 = `bayerPad` rows above `rows`), at pixel x = 0.
    @inline(__always)
    func bayerRow(_ j: Int) -> UnsafeMutablePointer<Float> {
        bayer + j * bayerStride + ISPBand.bayerPad
    }

    /// Start of image row `y` (within `rows`) of plane `c` (0…2 image channels, 3…5 scratch).
    @inline(__always)
    func row(_ c: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
        planes + (c * rows.count + (y - rows.lowerBound)) * planeStride
    }

    /// Start of image row `y` clamped into `rows`, for vertical filters.
    @inline(__always)
    func clampedRow(_ c: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
        row(c, min(max(y, rows.lowerBound), rows.upperBound - 1))
    }

    /// Reflects an index into 0..<n without repeating the edge sample (keeps parity).
    @inline(__always)
    static func reflect(_ i: Int, _ n: Int) -> Int {
        guard n > 1 else { return 0 }
        // Mirroring repeats with the even period 2n − 2, so parity survives any distance.
        let period = 2 * n - 2
        var r = i % period
        if r < 0 { r += period }
        return r >= n ? period - r : r
    }

    /// Fills the left and right pad columns of Bayer row j by reflection.
    @inline(__always)
    func padBayerRow(_ j: Int) {
        let p = bayerRow(j)
        for x in -ISPBand.bayerPad..<0 { p[x] = p[ISPBand.reflect(x, width)] }
        let pad = ISPBand.bayerPad
        for x in width..<(width + pad) { p[x] = p[ISPBand.reflect(x, width)] }
        for x in (width + pad)..<(bayerStride - pad) { p[x] = 0 }
    }
}
