import CFFmpeg
import CaptureCore
import Foundation

/// Decodes one frame of a movie's video (H.264, HEVC, anything FFmpeg decodes) to RGB pixels shown as players show
/// them — the track's display matrix applied, so an iPhone's portrait movie comes out portrait: a video's thumbnail or
/// poster frame. FFmpeg is loaded on first use, as for `MovieWriter`.
public enum MovieFrameDecoder {
    /// The frame shown at `seconds` from the movie's start (the first frame at 0; the last one for a time past the
    /// end), 8-bit RGB (3 channels), its Y′CbCr converted with the matrix and range the stream declares (BT.601 when
    /// it declares none, as FFmpeg's scaler takes it). Throws `.invalidImage` for a file that is no movie FFmpeg reads
    /// or has no video, `.decoderFailed` when no frame decodes, `.unsupported` without FFmpeg or for a sample format
    /// other than 8- to 12-bit Y′CbCr (alpha, as ProRes 4444 has, left out), grey, planar RGB or packed 8-bit RGB, or a
    /// frame beyond `ImageLimits`.
    public static func frame(contentsOf url: URL, at seconds: Double = 0) throws -> Raster<UInt8> {
        var info = ocav_frame_info()
        var error = [CChar](repeating: 0, count: 256)
        let time = seconds.isFinite ? seconds : 0
        guard let frame = url.path.withCString({ ocav_decode_frame($0, time, &info, &error, Int32(error.count)) }) else {
            let message = MovieWriter.text(error)
            let described = "\(url.lastPathComponent): \(message)"
            if message.hasPrefix("FFmpeg is not") || message.hasPrefix("FFmpeg has no") || message.hasPrefix("video frames in sample format") {
                throw MediaFormatError.unsupported(described)
            }
            if message.hasPrefix("cannot decode") || message.hasSuffix("has no frame") { throw MediaFormatError.decoderFailed(described) }
            throw MediaFormatError.invalidImage(described)
        }
        defer { ocav_frame_free(frame) }
        let width = Int(info.width), height = Int(info.height)
        try ImageLimits.check(width: width, height: height, format: "\(url.lastPathComponent)'s video frame")
        let stored = rgb(info, width: width, height: height)
        guard info.has_display_matrix != 0 else { return stored }
        let values = withUnsafeBytes(of: info.display_matrix) { Array($0.bindMemory(to: Int32.self)) }
        let orientation = DisplayMatrix(values)?.exifOrientation ?? 1
        return orientation == 1 ? stored : ExifOrientationTransform(exifOrientation: orientation, size: stored.size).apply(stored)
    }

    /// The frame's Y′CbCr, grey or RGB samples as 8-bit RGB, row bands on every core.
    private static func rgb(_ info: ocav_frame_info, width: Int, height: Int) -> Raster<UInt8> {
        let depth = Int(info.bit_depth), planes = Int(info.planes)
        // BT.601 is what an undeclared matrix is taken as.
        let weights = SIMD3<Float>((YCbCrMatrix(code: Int(info.matrix)) ?? .bt601).lumaWeights)
        let (kr, kg, kb) = (weights.x, weights.y, weights.z)
        let scale = Float(1 << (depth - 8))
        let full = info.full_range != 0
        // Y′ in 0…255 = (Y − yOffset) · yGain; Cb, Cr in −127.5…127.5 = (C − cOffset) · cGain.
        let yOffset: Float = full ? 0 : 16 * scale, cOffset = Float(1 << (depth - 1))
        let yGain: Float = full ? 255 / Float((1 << depth) - 1) : 255 / (219 * scale)
        let cGain: Float = full ? 255 / Float((1 << depth) - 1) : 255 / (224 * scale)
        let crR = 2 * (1 - kr), cbB = 2 * (1 - kb), cbG = -2 * kb * (1 - kb) / kg, crG = -2 * kr * (1 - kr) / kg
        let shiftX = Int(info.chroma_shift_x), shiftY = Int(info.chroma_shift_y)
        let data = [info.data.0, info.data.1, info.data.2], strides = [Int(info.linesize.0), Int(info.linesize.1), Int(info.linesize.2)]
        let isRGB = info.rgb != 0, packed = Int(info.packed_bytes)
        let offsets = [Int(info.packed_offsets.0), Int(info.packed_offsets.1), Int(info.packed_offsets.2)]
        let rgbGain = 255 / Float((1 << depth) - 1)

        /// Sample `x` of row `y` in plane `p`, widened to Float.
        func convert<Sample: FixedWidthInteger & UnsignedInteger>(_: Sample.Type, into out: UnsafeMutablePointer<UInt8>) {
            @inline(__always) func row(_ p: Int, _ y: Int) -> UnsafePointer<Sample> {
                UnsafeRawPointer(data[p]!).advanced(by: y * strides[p]).assumingMemoryBound(to: Sample.self)
            }
            @inline(__always) func byte(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 255).rounded()) }
            Parallel.forEachBand(height: height, bandHeight: 32) { band in
                for y in band {
                    let luma = row(0, y), o = out + 3 * width * y
                    // Packed 8-bit RGB: each pixel's bytes, R, G and B where the format keeps them (alpha left out).
                    if packed > 0 {
                        let bytes = UnsafeRawPointer(data[0]!).advanced(by: y * strides[0]).assumingMemoryBound(to: UInt8.self)
                        for x in 0..<width { for c in 0..<3 { o[3 * x + c] = bytes[packed * x + offsets[c]] } }
                        continue
                    }
                    // Planar RGB: planes G, B, R, full range.
                    if isRGB {
                        let g = row(0, y), b = row(1, y), r = row(2, y)
                        for x in 0..<width {
                            o[3 * x] = byte(Float(Sample(littleEndian: r[x])) * rgbGain)
                            o[3 * x + 1] = byte(Float(Sample(littleEndian: g[x])) * rgbGain)
                            o[3 * x + 2] = byte(Float(Sample(littleEndian: b[x])) * rgbGain)
                        }
                        continue
                    }
                    guard planes > 1 else {
                        for x in 0..<width {
                            let v = byte((Float(Sample(littleEndian: luma[x])) - yOffset) * yGain)
                            o[3 * x] = v; o[3 * x + 1] = v; o[3 * x + 2] = v
                        }
                        continue
                    }
                    let cy = y >> shiftY
                    // NV12: Cb and Cr alternate in plane 1.
                    let cb = row(1, cy), cr = planes == 2 ? row(1, cy) + 1 : row(2, cy), step = planes == 2 ? 2 : 1
                    for x in 0..<width {
                        let cx = (x >> shiftX) * step
                        let l = (Float(Sample(littleEndian: luma[x])) - yOffset) * yGain
                        let u = (Float(Sample(littleEndian: cb[cx])) - cOffset) * cGain
                        let v = (Float(Sample(littleEndian: cr[cx])) - cOffset) * cGain
                        o[3 * x] = byte(l + crR * v)
                        o[3 * x + 1] = byte(l + cbG * u + crG * v)
                        o[3 * x + 2] = byte(l + cbB * u)
                    }
                }
            }
        }
        return Raster<UInt8>(width: width, height: height, channels: 3) { out in
            if depth > 8 { convert(UInt16.self, into: out) } else { convert(UInt8.self, into: out) }
        }
    }
}
