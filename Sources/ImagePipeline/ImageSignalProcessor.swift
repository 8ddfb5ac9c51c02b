import CaptureCore
import Foundation

/// Develops raw Bayer frames (and linear DNGs' camera RGB, `RawImage.isLinear`, whose demosaic is skipped) into
/// display-ready or linear RGB.
///
/// The frame flows through the stages in bands of rows, all stages fused per band so the
/// intermediate Float data stays in cache:
/// `BlackLevelStage` (with lens shading) → `DemosaicStage` → `ColorMatrixStage` → `NoiseReductionStage` → (`LocalToneMap`, for a
/// frame with highlight headroom) → `ToneStage`.
/// With a lens to correct (`correctsDistortion`), black level and demosaic run ahead into a window of rows of linear
/// camera RGB (16-bit codes) per worker, and each output band resamples its rows from that window to undo the lens's
/// distortion and lateral chromatic aberration — in the sensor's own colour planes and in linear light, where the
/// aberration happens — before the colour matrix, noise reduction and tone.
public struct ImageSignalProcessor: Sendable {
    /// What this processor does; see ``ISPSettings``.
    public var settings: ISPSettings
    /// Output rows per band (each band also computes a few rows of context); the photo does not depend on it (tests
    /// change it to check that bands leave no seams).
    var bandHeight = 32

    public init(settings: ISPSettings = ISPSettings()) {
        self.settings = settings
    }

    /// The white-balance gains used for `raw`.
    public func whiteBalanceGains(for raw: RawImage) -> SIMD3<Double> {
        if let gains = settings.whiteBalance { return gains }
        let n = raw.asShotNeutral
        return SIMD3(1 / max(n.x, 1e-6), 1 / max(n.y, 1e-6), 1 / max(n.z, 1e-6))
    }

    /// raw → black level → white balance → demosaic → colour matrix → noise reduction → tone + gamma
    /// → 8-bit RGB (3 channels interleaved), in bands, on all cores.
    public func process(_ raw: RawImage) -> Raster<UInt8> {
        let w = raw.width, h = raw.height
        guard w > 0, h > 0 else { return Raster<UInt8>(width: w, height: h, channels: 3) }
        let tone = ToneStage(curve: settings.toneCurve, headroom: raw.baselineExposure)
        // Every row is emitted once: the bands write the whole raster.
        let out = Raster<UInt8>(width: w, height: h, channels: 3) { dst in
            run(raw) { band, y, r, g, b in
                tone.run(r: r, g: g, b: b, into: dst + y * w * 3, width: w)
            }
        }
        if let size = settings.outputSize, size != out.size, size.width > 0, size.height > 0 {
            return Resampler.downscale(out, to: size)
        }
        return out
    }

    /// The photo `process` makes (without `outputSize`), handed to `sink` in bands of `outputBandHeight` rows (the
    /// last may be shorter) as they are finished — on any thread, in no particular order — each band's 8-bit RGB rows
    /// packed (`3 × width` bytes a row). For writers that place bands straight into their file (`TIFFStripWriter`), so
    /// no image of the whole photo is made: 36 MB of fresh memory for a 12 MP photo, whose page faults cost more
    /// than its bytes do.
    public func process(_ raw: RawImage, bandsTo sink: (_ rows: Range<Int>, _ pixels: UnsafeRawBufferPointer) -> Void) {
        let tone = ToneStage(curve: settings.toneCurve, headroom: raw.baselineExposure)
        inBands(raw, of: UInt8.self, sink: sink) { r, g, b, out, w in tone.run(r: r, g: g, b: b, into: out, width: w) }
    }

    /// `process16`'s photo in bands, as `process(_:bandsTo:)` hands over `process`'s: 16-bit samples in the host's
    /// order, `6 × width` bytes a row.
    public func process16(_ raw: RawImage, bandsTo sink: (_ rows: Range<Int>, _ pixels: UnsafeRawBufferPointer) -> Void) {
        let table = ToneCurve.Table16(curve: settings.toneCurve, headroom: raw.baselineExposure)
        inBands(raw, of: UInt16.self, sink: sink) { r, g, b, o, w in
            for x in 0..<w {
                o[3 * x] = table.code(r[x])
                o[3 * x + 1] = table.code(g[x])
                o[3 * x + 2] = table.code(b[x])
            }
        }
    }

    /// Rows per band `process(_:bandsTo:)` hands over (all but the last band's).
    public var outputBandHeight: Int { bandHeight }

    /// Runs the pipeline, each row through `encode` into its band's buffer and each full band to `sink`. A band's
    /// buffer is allocated at its first row and freed after its last (so only the bands in flight hold one); bands
    /// are `RowBands(height:bandHeight:)`, one worker each, so a slot per band needs no lock.
    private func inBands<Sample>(_ raw: RawImage, of: Sample.Type, sink: (Range<Int>, UnsafeRawBufferPointer) -> Void,
                                 encode: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                                          UnsafeMutablePointer<Sample>, Int) -> Void) {
        let w = raw.width, h = raw.height
        guard w > 0, h > 0 else { return }
        let bands = RowBands(height: h, bandHeight: bandHeight)
        let rowCount = 3 * w
        let buffers = UnsafeMutablePointer<UnsafeMutablePointer<Sample>?>.allocate(capacity: bands.count)
        buffers.initialize(repeating: nil, count: bands.count)
        defer { buffers.deallocate() }
        run(raw) { band, y, r, g, b in
            let index = band.output.lowerBound / bandHeight, rows = bands[index]
            if y == rows.lowerBound { buffers[index] = .allocate(capacity: rows.count * rowCount) }
            let buffer = buffers[index]!
            encode(r, g, b, buffer + (y - rows.lowerBound) * rowCount, w)
            if y == rows.upperBound - 1 {
                sink(rows, UnsafeRawBufferPointer(start: buffer, count: rows.count * rowCount * MemoryLayout<Sample>.stride))
                buffer.deallocate()
                buffers[index] = nil
            }
        }
    }

    /// The photo `process` makes, in 16-bit codes (what a 16-bit TIFF develop writes): the same stages, local tone
    /// mapping and highlight roll-off included, each value through the curve's 16-bit table. (`outputSize` is not
    /// applied.)
    public func process16(_ raw: RawImage) -> Raster<UInt16> {
        let w = raw.width, h = raw.height
        guard w > 0, h > 0 else { return Raster<UInt16>(width: w, height: h, channels: 3, repeating: 0) }
        let table = ToneCurve.Table16(curve: settings.toneCurve, headroom: raw.baselineExposure)
        return Raster<UInt16>(width: w, height: h, channels: 3) { dst in
            run(raw) { band, y, r, g, b in
                let o = dst + y * w * 3
                for x in 0..<w {
                    o[3 * x] = table.code(r[x])
                    o[3 * x + 1] = table.code(g[x])
                    o[3 * x + 2] = table.code(b[x])
                }
            }
        }
    }

    /// The same path to bi-planar 4:2:0 Y′CbCr (`420v`, or `420f` with `fullRange`) in `matrix`, which the buffer's
    /// attachment names, two rows at a time inside each band: no 8-bit RGB image in between (what the video pipeline
    /// streams). It does not correct the lens's
    /// distortion or lateral chromatic aberration (video frames keep them), nor tone-map locally (a frame with highlight
    /// headroom gets the global roll-off only, keeping every stream frame's cost flat); for a frame without lens flaws
    /// or headroom, the same pixels as `PixelBuffer.yCbCr420(from: process(raw), fullRange:, matrix:)`. Nil only if the
    /// buffer cannot be made.
    public func processYCbCr420(_ raw: RawImage, fullRange: Bool, matrix: YCbCrMatrix) -> PixelBuffer? {
        let w = raw.width, h = raw.height
        guard w > 0, h > 0, settings.outputSize == nil || settings.outputSize == Size(width: w, height: h),
              let buffer = PixelBuffer(width: w, height: h,
                                       pixelFormat: fullRange ? .yuv420BiPlanarFullRange : .yuv420BiPlanarVideoRange),
              let yPlane = buffer.baseAddress(ofPlane: 0), let cPlane = buffer.baseAddress(ofPlane: 1) else { return nil }
        precondition(bandHeight % 2 == 0, "row pairs must not straddle bands")
        let tone = ToneStage(curve: settings.toneCurve, headroom: raw.baselineExposure)
        let c = cPlane.assumingMemoryBound(to: UInt8.self)
        let destination = YCbCr420.Destination(y: yPlane.assumingMemoryBound(to: UInt8.self), yRowStride: buffer.planes[0].bytesPerRow,
                                               cb: c, cr: c + 1, chromaRowStride: buffer.planes[1].bytesPerRow, chromaStep: 2)
        let range: YCbCr420.Range = fullRange ? .full : .video
        run(raw, correctingLens: false, tonesLocally: false) { band, y, _, _, _ in
            // Bands start on even rows, so each odd row (or a last even one) completes its pair.
            guard y % 2 == 1 || y == h - 1 else { return }
            let top = y - y % 2
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 * w) { bytes in
                let p = bytes.baseAddress!
                for channel in 0..<3 { tone.run(band.row(channel, top), into: p + channel * w, width: w) }
                if y != top { for channel in 0..<3 { tone.run(band.row(channel, y), into: p + (3 + channel) * w, width: w) } }
                let upper = (UnsafePointer(p), UnsafePointer(p + w), UnsafePointer(p + 2 * w))
                let lower = y != top ? (UnsafePointer(p + 3 * w), UnsafePointer(p + 4 * w), UnsafePointer(p + 5 * w)) : upper
                YCbCr420.convertRowPair(upper, lower, width: w, chromaRow: top / 2, lowerLuma: y != top, range: range,
                                        matrix: matrix, into: destination)
            }
        }
        CoreVideoAttachment.tag(buffer, matrix: matrix)
        return buffer
    }

    /// The level of `processLinear`'s output from which a sample of `raw` counts as clipped (`RawImage.clipCode`),
    /// and the vignetting correction that raises it at each pixel by its gain there (nil when the ISP corrects none).
    public func linearClipLevel(for raw: RawImage) -> (level: Float, shading: LensCorrection?) {
        let black = BlackLevelStage(raw: raw, gains: whiteBalanceGains(for: raw), exposureGain: exposureGain(raw.baselineExposure),
                                    correctsShading: false)
        let lowestBlack = raw.blackLevel.filter(\.isFinite).min() ?? 0
        let fraction = (Float(raw.clipCode) - lowestBlack) / max(1, Float(raw.whiteLevel) - lowestBlack)
        return (black.clip * fraction, settings.correctsLensShading ? raw.vignettingCorrection : nil)
    }

    /// The digital gain for a frame: the requested one times its baseline exposure (auto exposure's highlight headroom).
    private func exposureGain(_ baselineExposure: Double) -> Double { settings.exposureGain * pow(2, baselineExposure) }

    /// The same path stopping before tone mapping: linear output-space RGB, 1.0 = white.
    /// (`outputSize` is not applied.)
    public func processLinear(_ raw: RawImage) -> Raster<Float> {
        let w = raw.width, h = raw.height
        guard w > 0, h > 0 else { return Raster<Float>(width: w, height: h, channels: 3) }
        return Raster<Float>(width: w, height: h, channels: 3) { dst in
            run(raw, tonesLocally: false) { band, y, r, g, b in
                let o = dst + y * w * 3
                for x in 0..<w {
                    o[3 * x] = r[x]
                    o[3 * x + 1] = g[x]
                    o[3 * x + 2] = b[x]
                }
            }
        }
    }

    /// Reference rendering of a ground-truth linear sRGB image (1.0 = saturation) through the same
    /// exposure gain, colour-space conversion, tone curve and gamma as `process`, so that
    /// `ImageQuality.cpsnr(process(raw), renderReference(truth))` measures the ISP; `baselineExposure` is the
    /// raw frame's (the brightening, local tone mapping and highlight roll-off `process` applies to it; the local
    /// tone map is made from the truth itself, so it matches the photo's up to noise).
    public func renderReference(_ linearSRGB: Raster<Float>, baselineExposure: Double = 0) -> Raster<UInt8> {
        precondition(linearSRGB.channels == 3, "renderReference needs 3-channel RGB")
        let w = linearSRGB.width, h = linearSRGB.height
        var out = Raster<UInt8>(width: w, height: h, channels: 3)
        let tone = ToneStage(curve: settings.toneCurve, headroom: baselineExposure)
        let conversion = settings.colorSpace.conversion(from: .sRGB)
        let gain = exposureGain(baselineExposure)
        let m = (conversion * Matrix3.diagonal(gain, gain, gain))
            .m.map(Float.init)
        let local = LocalToneMap(linear: linearSRGB, exposureGain: gain, headroom: baselineExposure)
        linearSRGB.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                let src = src.baseAddress!, dst = dst.baseAddress!
                Parallel.forEachBand(height: h, bandHeight: bandHeight) { rows in
                    var r = [Float](repeating: 0, count: w), g = r, b = r
                    for y in rows {
                        let s = src + y * w * 3
                        for x in 0..<w {
                            let rv = s[3 * x], gv = s[3 * x + 1], bv = s[3 * x + 2]
                            r[x] = m[0] * rv + m[1] * gv + m[2] * bv
                            g[x] = m[3] * rv + m[4] * gv + m[5] * bv
                            b[x] = m[6] * rv + m[7] * gv + m[8] * bv
                        }
                        local?.apply(r: &r, g: &g, b: &b, row: y, width: w)
                        tone.run(r: r, g: g, b: b, into: dst + y * w * 3, width: w)
                    }
                }
            }
        }
        return out
    }

    /// Runs stages 1–4 band by band on all cores, handing each finished row (planar linear RGB) to `emit`; with
    /// `correctingLens` and a lens to correct, through the row windows the type's documentation describes. With
    /// `tonesLocally`, a frame with highlight headroom gets its `LocalToneMap` before `emit`.
    private func run(_ raw: RawImage, correctingLens: Bool = true, tonesLocally: Bool = true,
                     emit: (ISPBand, Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let gains = whiteBalanceGains(for: raw)
        let exposureGain = self.exposureGain(raw.baselineExposure)
        let black = BlackLevelStage(raw: raw, gains: gains, exposureGain: exposureGain,
                                    correctsShading: settings.correctsLensShading)
        var demosaic = DemosaicStage(method: settings.demosaic, cfa: raw.cfa)
        let color = ColorMatrixStage(cameraToSRGB: raw.cameraToSRGB, colorSpace: settings.colorSpace)
        let w = raw.width, h = raw.height
        let lens = correctingLens && settings.correctsDistortion && RadialWarp.resamples(width: w, height: h)
            ? raw.lensCorrection : nil
        let warp = lens?.correction(for: Size(width: w, height: h), channels: 3)
        let knots = warp?.knots(width: w, height: h, planes: 3)
        let local = tonesLocally ? LocalToneMap(raw: raw, gains: gains, exposureGain: exposureGain, lens: knots != nil ? lens : nil,
                                                shading: settings.correctsLensShading) : nil
        // Noise reduction after the lens correction sees noise its bilinear resampling has averaged: at fractions
        // spread evenly, (2/3)² of the variance is left on average, and the noise model is scaled to match when
        // green (most of luma) is resampled. (Less near the optical centre, where the fractions stay small.)
        let averaged = knots?.activePlanes.contains(1) == true
        let noise = NoiseReductionStage(raw: raw, gains: gains, exposureGain: exposureGain,
                                        matrix: color.matrix, strength: settings.noiseReduction * (averaged ? 4.0 / 9 : 1),
                                        sharpening: settings.sharpening)
        if let lens, let knots {
            if settings.demosaic == .residualInterpolation, !raw.isLinear {
                demosaic.chromaticGuides = [0, 1, 2].map { plane in
                    plane == 1 ? nil : lens.greenAlignment(plane: plane, within: DemosaicStage.guideReach)?
                        .knots(width: w, height: h, planes: 1)
                }
            }
            runCorrectingLens(raw, knots: knots, black: black, demosaic: demosaic, color: color, noise: noise,
                              local: local, emit: emit)
            return
        }
        raw.bayer.storage.withUnsafeBufferPointer { codes in
            let codes = codes.baseAddress!
            ISPBand.forEachBand(width: w, height: h, bandHeight: bandHeight,
                                context: noise.context, demosaics: !raw.isLinear) { band in
                Self.cameraRGB(codes, linear: raw.isLinear, into: band, black: black, demosaic: demosaic)
                Self.finish(band, color: color, noise: noise, local: local, emit: emit)
            }
        }
    }

    /// Stages 1–2: a mosaic's black level and demosaic, or a linear image's black level alone (its camera RGB is
    /// already whole), into planes 0…2 of `band.rows`.
    @inline(__always)
    private static func cameraRGB(_ codes: UnsafePointer<UInt16>, linear: Bool, into band: ISPBand, black: BlackLevelStage,
                                  demosaic: DemosaicStage) {
        if linear {
            black.runLinear(codes, into: band)
        } else {
            black.run(codes, into: band)
            demosaic.run(band)
        }
    }

    /// Stages 3–5 of a band holding camera RGB: colour matrix, noise reduction, the local tone map, then each output
    /// row to `emit`.
    private static func finish(_ band: ISPBand, color: ColorMatrixStage, noise: NoiseReductionStage, local: LocalToneMap?,
                               emit: (ISPBand, Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        color.run(band)
        noise.prepare(band)
        for y in band.output {
            noise.finish(band, row: y)
            local?.apply(r: band.row(0, y), g: band.row(1, y), b: band.row(2, y), row: y, width: band.width)
            emit(band, y, band.row(0, y), band.row(1, y), band.row(2, y))
        }
    }

    /// The lens-correcting run: each worker takes a run of consecutive output bands and keeps a `LinearRowWindow` of
    /// linear camera RGB (black level and demosaic, in chunks of twice the band height, ahead of need) holding the
    /// source rows its next band reads where the lens put them; each band resamples its rows from the window, then
    /// goes through the colour matrix, noise reduction and local tone map. The frame of linear camera RGB is never
    /// whole in memory.
    private func runCorrectingLens(_ raw: RawImage, knots: RadialWarp.Knots, black: BlackLevelStage, demosaic: DemosaicStage,
                                   color: ColorMatrixStage, noise: NoiseReductionStage, local: LocalToneMap?,
                                   emit: (ISPBand, Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let w = raw.width, h = raw.height
        let bands = RowBands(height: h, bandHeight: bandHeight)
        // The demosaic's 10 rows of context cost less per row in taller chunks.
        let chunk = 2 * bandHeight
        let context = noise.context
        // Source rows each band reads (its rows with the noise reduction's context), and the most any band spans.
        let needs = Parallel.map(count: bands.count) { b in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * knots.count) { memory in
                let kx = memory.baseAddress!, ky = kx + knots.count, output = bands[b]
                let rows = max(0, output.lowerBound - context)..<min(h, output.upperBound + context)
                var low = Int32.max, high = Int32.min
                // Every knot row in the band and its ends (a lens whose correction folds back is not monotone).
                let knotRows = Array(stride(from: rows.lowerBound, to: rows.upperBound, by: RadialWarp.knotSpacing)) + [rows.upperBound - 1]
                for y in knotRows {
                    for c in 0..<3 {
                        knots.fill(row: y, plane: c, x: kx, y: ky)
                        for k in 0..<knots.count {
                            let p = min(max(ky[k], 0), knots.limits.y)
                            low = min(low, p); high = max(high, p)
                        }
                    }
                }
                // A position reads its row and the one below it.
                return Int(low >> 16)...Int(high >> 16) + 1
            }
        }
        let capacity = (needs.map(\.count).max() ?? 0) + chunk + 2 * bandHeight
        // Room for the demosaic's overshoot past the clip level and below black.
        let top = black.maximum * 1.5
        let runs = RowBands(height: bands.count, maxCount: Parallel.coreCount)
        raw.bayer.storage.withUnsafeBufferPointer { codes in
            let codes = codes.baseAddress!
            Parallel.forEachBand(height: runs.height, bandHeight: runs.bandHeight) { run in
                let window = LinearRowWindow(width: w, imageHeight: h, capacity: min(capacity, h + chunk), minimum: -top / 8,
                                             maximum: top)
                ISPBand.withWorkspace(width: w, height: h, bandHeight: chunk, context: 0) { demosaicBand in
                    ISPBand.withWorkspace(width: w, height: h, bandHeight: bandHeight, context: context,
                                          demosaics: false) { layout in
                        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * knots.count) { memory in
                            let kx = memory.baseAddress!, ky = kx + knots.count
                            for b in run {
                                window.cover(needs[b], chunk: chunk) { rows in
                                    let source = demosaicBand(rows)
                                    Self.cameraRGB(codes, linear: raw.isLinear, into: source, black: black, demosaic: demosaic)
                                    for y in rows { for c in 0..<3 { window.store(source.row(c, y), plane: c, row: y) } }
                                }
                                let band = layout(bands[b])
                                // Positions in window rows: shifted up by the window's first image row, clamped to the rows
                                // it holds (which cover the band's needs).
                                let shift = Int64(window.base) << 16
                                let rowLimits = 0...Int32(min(Int64(knots.limits.y) - shift, Int64(window.count - 1) << 16 - 1))
                                for y in band.rows {
                                    for c in 0..<3 {
                                        knots.fill(row: y, plane: c, x: kx, y: ky)
                                        for k in 0..<knots.count { ky[k] = Int32(clamping: Int64(ky[k]) - shift) }
                                        PlanarWarpRow.resample(knotsX: kx, knotsY: ky, width: w,
                                                               source: UnsafePointer(window.planes.plane(c)), stride: w,
                                                               limitX: knots.limits.x, rowLimits: rowLimits,
                                                               scale: window.planes.step, offset: window.planes.minimum,
                                                               into: band.row(c, y))
                                    }
                                }
                                Self.finish(band, color: color, noise: noise, local: local, emit: emit)
                            }
                        }
                    }
                }
            }
        }
    }
}
