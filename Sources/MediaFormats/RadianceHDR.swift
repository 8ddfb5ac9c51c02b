import CaptureCore
import Foundation

/// Radiance RGBE (`.hdr`, `.pic`) reading and writing: 32-bit RGBE pixels (shared 8-bit exponent),
/// scene-linear Float RGB in memory. Encoding writes `#?RADIANCE`, `FORMAT=32-bit_rle_rgbe`, the standard
/// `-Y height +X width` orientation and new-style run-length-encoded scanlines (flat scanlines when the
/// width is outside 8…32767, as the format requires). Decoding reads new-style RLE, flat and old-style
/// RLE scanlines in the `-Y/+Y … +X` orientations. `EXPOSURE=` lines are ignored (pixel values are returned as stored).
public enum RadianceHDR {
    /// Encodes 3-channel linear RGB. Negative and non-finite values are written as 0.
    public static func encode(_ image: Raster<Float>) throws -> Data {
        guard image.channels == 3 else { throw MediaFormatError.unsupported("Radiance HDR encoding needs 3 channels") }
        guard image.width > 0, image.height > 0 else { throw MediaFormatError.unsupported("empty image") }
        let w = image.width, h = image.height
        var data = Data("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\nSOFTWARE=OpenCapture\n\n-Y \(h) +X \(w)\n".utf8)
        data.reserveCapacity(data.count + w * h * 4)
        let rle = w >= 8 && w < 32_768
        var pixels = [UInt8](repeating: 0, count: 4 * w)
        var component = [UInt8](repeating: 0, count: w)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(5 * w + 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                let rgbe = Self.rgbe(image.storage[i], image.storage[i + 1], image.storage[i + 2])
                pixels[4 * x] = rgbe.0; pixels[4 * x + 1] = rgbe.1; pixels[4 * x + 2] = rgbe.2; pixels[4 * x + 3] = rgbe.3
            }
            guard rle else { data.append(contentsOf: pixels); continue }
            bytes.removeAll(keepingCapacity: true)
            bytes += [2, 2, UInt8(w >> 8), UInt8(w & 255)]
            for c in 0..<4 {
                for x in 0..<w { component[x] = pixels[4 * x + c] }
                Self.appendRuns(component, to: &bytes)
            }
            data.append(contentsOf: bytes)
        }
        return data
    }

    /// Decodes a Radiance RGBE file to 3-channel linear RGB.
    public static func decode(_ data: Data) throws -> Raster<Float> {
        let bytes = [UInt8](data)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "#"), bytes[1] == UInt8(ascii: "?") else {
            throw bytes.isEmpty ? MediaFormatError.invalidImage("empty data") : MediaFormatError.invalidImage("not a Radiance HDR file (no #? signature)")
        }
        var position = 0
        func line() throws -> String {
            guard let end = bytes[position...].firstIndex(of: 0x0A) else { throw MediaFormatError.truncated }
            defer { position = end + 1 }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }
        _ = try line()
        while true {
            let header = try line()
            if header.isEmpty { break }
            if header.hasPrefix("FORMAT=") && header != "FORMAT=32-bit_rle_rgbe" {
                throw MediaFormatError.unsupported("Radiance pixel format \(header.dropFirst(7))")
            }
        }
        let fields = try line().split(separator: " ")
        guard fields.count == 4, fields[0] == "-Y" || fields[0] == "+Y", fields[2] == "+X",
              let h = Int(fields[1]), let w = Int(fields[3]), w > 0, h > 0 else {
            throw MediaFormatError.unsupported("Radiance resolution line \(fields.joined(separator: " "))")
        }
        try ImageLimits.check(width: w, height: h, format: "Radiance image")
        var out = Raster<Float>(width: w, height: h, channels: 3)
        var scanline = [UInt8](repeating: 0, count: 4 * w)
        for row in 0..<h {
            try readScanline(bytes, at: &position, width: w, into: &scanline)
            let y = fields[0] == "-Y" ? row : h - 1 - row
            for x in 0..<w {
                let rgb = Self.float(scanline[4 * x], scanline[4 * x + 1], scanline[4 * x + 2], scanline[4 * x + 3])
                let i = (y * w + x) * 3
                out.storage[i] = rgb.0; out.storage[i + 1] = rgb.1; out.storage[i + 2] = rgb.2
            }
        }
        return out
    }

    // MARK: - Pixels

    /// Float RGB → RGBE (mantissas truncated, as Ward's `float2rgbe`).
    static func rgbe(_ r: Float, _ g: Float, _ b: Float) -> (UInt8, UInt8, UInt8, UInt8) {
        func clean(_ v: Float) -> Float { v.isFinite ? max(v, 0) : 0 }
        let r = clean(r), g = clean(g), b = clean(b)
        let v = max(r, g, b)
        guard v >= 1e-32 else { return (0, 0, 0, 0) }
        let e = min(Int(v.exponent) + 1, 127)  // v = m · 2^e with m in [0.5, 1)
        let scale = Float(sign: .plus, exponent: 8 - e, significand: 1)  // 256 / 2^e
        func m(_ c: Float) -> UInt8 { UInt8(min(255, c * scale)) }
        return (m(r), m(g), m(b), UInt8(e + 128))
    }

    /// RGBE → Float RGB, with the half-step offset of Radiance's `colr_color`.
    static func float(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ e: UInt8) -> (Float, Float, Float) {
        guard e != 0 else { return (0, 0, 0) }
        let f = Float(sign: .plus, exponent: Int(e) - 136, significand: 1)
        return ((Float(r) + 0.5) * f, (Float(g) + 0.5) * f, (Float(b) + 0.5) * f)
    }

    // MARK: - Scanlines

    /// New-style run-length encoding of one component: runs of ≥ 3 equal bytes as (128 + n, byte),
    /// everything else as literal blocks (n ≤ 128, bytes…).
    static func appendRuns(_ values: [UInt8], to out: inout [UInt8]) {
        let n = values.count
        var i = 0
        while i < n {
            // Find the next run of at least 3.
            var runStart = i, runLength = 0
            while runStart < n {
                runLength = 1
                while runStart + runLength < n, runLength < 127, values[runStart + runLength] == values[runStart] { runLength += 1 }
                if runLength >= 3 { break }
                runStart += runLength
            }
            if runStart > n { runStart = n }
            // Literals before it.
            while i < min(runStart, n) {
                let chunk = min(128, runStart - i)
                out.append(UInt8(chunk))
                out.append(contentsOf: values[i..<(i + chunk)])
                i += chunk
            }
            if runStart < n, runLength >= 3 {
                out.append(UInt8(128 + runLength))
                out.append(values[runStart])
                i = runStart + runLength
            }
        }
    }

    static func readScanline(_ bytes: [UInt8], at position: inout Int, width w: Int, into scanline: inout [UInt8]) throws {
        guard position + 4 <= bytes.count else { throw MediaFormatError.truncated }
        let newRLE = w >= 8 && w < 32_768 && bytes[position] == 2 && bytes[position + 1] == 2 && bytes[position + 2] & 0x80 == 0
        if newRLE {
            guard Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]) == w else {
                throw MediaFormatError.invalidImage("Radiance scanline width differs from the header")
            }
            position += 4
            for c in 0..<4 {
                var x = 0
                while x < w {
                    guard position < bytes.count else { throw MediaFormatError.truncated }
                    let code = Int(bytes[position]); position += 1
                    if code > 128 {
                        let n = code - 128
                        guard x + n <= w else { throw MediaFormatError.invalidImage("Radiance run overruns the scanline") }
                        guard position < bytes.count else { throw MediaFormatError.truncated }
                        let value = bytes[position]; position += 1
                        for k in 0..<n { scanline[4 * (x + k) + c] = value }
                        x += n
                    } else {
                        guard code > 0, x + code <= w else { throw MediaFormatError.invalidImage("bad Radiance literal count") }
                        guard position + code <= bytes.count else { throw MediaFormatError.truncated }
                        for k in 0..<code { scanline[4 * (x + k) + c] = bytes[position + k] }
                        position += code
                        x += code
                    }
                }
            }
            return
        }
        // Flat pixels, possibly with old-style runs (1, 1, 1, n repeats the previous pixel n << shift times).
        var x = 0, shift = 0
        while x < w {
            guard position + 4 <= bytes.count else { throw MediaFormatError.truncated }
            let p = bytes[position..<(position + 4)].map { $0 }
            position += 4
            if p[0] == 1 && p[1] == 1 && p[2] == 1 {
                guard x > 0 else { throw MediaFormatError.invalidImage("Radiance run without a previous pixel") }
                let n = Int(p[3]) << shift
                guard shift < 24, x + n <= w else { throw MediaFormatError.invalidImage("Radiance old-style run overruns the scanline") }
                for k in 0..<n { for c in 0..<4 { scanline[4 * (x + k) + c] = scanline[4 * (x - 1) + c] } }
                x += n
                shift += 8
            } else {
                for c in 0..<4 { scanline[4 * x + c] = p[c] }
                x += 1
                shift = 0
            }
        }
    }
}
