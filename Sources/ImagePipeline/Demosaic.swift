import CaptureCore

/// Stand-alone mosaicking and demosaicing of Float and 8-bit images (for benchmarks and tests);
/// the same kernels as the ISP's `DemosaicStage`.
public enum Demosaic {
    /// Samples a 3-channel image through the colour filter array: a 1-channel CFA image.
    public static func mosaic(_ rgb: Raster<Float>, cfa: CFAPattern) -> Raster<Float> {
        precondition(rgb.channels == 3, "mosaic needs 3-channel RGB")
        var out = Raster<Float>(width: rgb.width, height: rgb.height)
        for y in 0..<rgb.height {
            for x in 0..<rgb.width {
                out.storage[y * rgb.width + x] = rgb.storage[(y * rgb.width + x) * 3 + cfa.color(x: x, y: y)]
            }
        }
        return out
    }

    /// Reconstructs a 3-channel image from a 1-channel CFA image (any scale; borders reflected).
    public static func demosaic(_ mosaic: Raster<Float>, cfa: CFAPattern, method: DemosaicMethod) -> Raster<Float> {
        precondition(mosaic.channels == 1, "demosaic needs a 1-channel CFA image")
        let w = mosaic.width, h = mosaic.height
        var out = Raster<Float>(width: w, height: h, channels: 3)
        guard w > 0, h > 0 else { return out }
        let stage = DemosaicStage(method: method, cfa: cfa)
        mosaic.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                let src = src.baseAddress!, dst = dst.baseAddress!
                ISPBand.forEachBand(width: w, height: h, bandHeight: 32, context: 0) { band in
                    let rows = band.output
                    do {
                        for j in 0..<(band.rows.count + 2 * ISPBand.bayerPad) {
                            let iy = ISPBand.reflect(band.rows.lowerBound - ISPBand.bayerPad + j, h)
                            band.bayerRow(j).update(from: src + iy * w, count: w)
                            band.padBayerRow(j)
                        }
                        stage.run(band)
                        for y in rows {
                            let r = band.row(0, y), g = band.row(1, y), b = band.row(2, y), o = dst + y * w * 3
                            for x in 0..<w {
                                o[3 * x] = r[x]
                                o[3 * x + 1] = g[x]
                                o[3 * x + 2] = b[x]
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Mosaics an 8-bit RGB image (scaled to 0…1, as the ISP's samples are), demosaics it and rounds
    /// back to 8 bits (the Kodak benchmark's protocol).
    public static func roundTrip(_ rgb: Raster<UInt8>, cfa: CFAPattern, method: DemosaicMethod) -> Raster<UInt8> {
        precondition(rgb.channels == 3, "roundTrip needs 3-channel RGB")
        let w = rgb.width, h = rgb.height
        guard w > 0, h > 0 else { return rgb }
        let colors = cfa.colors
        // Both conversions in bands on all cores, so the figure timed around this is the demosaic's.
        let cfaImage = rgb.storage.withUnsafeBufferPointer { src in
            let src = src.baseAddress!
            return Raster<Float>(width: w, height: h, channels: 1) { out in
                Parallel.forEachBand(height: h, bandHeight: 64) { rows in
                    for y in rows {
                        let phase = (y & 1) * 2
                        for x in 0..<w { out[y * w + x] = Float(src[(y * w + x) * 3 + colors[phase + (x & 1)]]) / 255 }
                    }
                }
            }
        }
        let full = demosaic(cfaImage, cfa: cfa, method: method)
        return full.storage.withUnsafeBufferPointer { src in
            let src = src.baseAddress!
            return Raster<UInt8>(width: w, height: h, channels: 3) { out in
                Parallel.forEachBand(height: h, bandHeight: 64) { rows in
                    for i in (rows.lowerBound * w * 3)..<(rows.upperBound * w * 3) {
                        out[i] = UInt8(min(max((src[i] * 255).rounded(), 0), 255))
                    }
                }
            }
        }
    }
}
