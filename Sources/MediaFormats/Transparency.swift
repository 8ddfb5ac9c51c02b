import CaptureCore

/// What a decoder that returns RGB does with an image's alpha channel (a PNG's, a HEIF's alpha plane). Every reader
/// offers the same three, so a transparent PNG and a transparent HEIC are treated alike wherever they are read.
public enum Transparency: Sendable, Equatable {
    /// The colour values kept as stored, alpha dropped (what is hidden shows).
    case ignored
    /// An image with any pixel less than opaque throws `.unsupported` ("a PNG with transparent pixels (…)"); an alpha
    /// channel that is opaque everywhere is no reason to refuse.
    case refused
    /// Composited over white, as a page shows the image and as photo viewers' thumbnails show it.
    case overWhite

    /// Interleaved RGBA (straight, not premultiplied, alpha) turned into RGB as this says, in place: the first
    /// `3 · pixels` bytes, the buffer then cut to them. `format` names the file kind in a refusal.
    func rgb(fromRGBA storage: inout [UInt8], pixels: Int, format: String) throws {
        if self == .refused {
            var transparent = 0
            storage.withUnsafeBufferPointer { buffer in
                for p in 0..<pixels where buffer[4 * p + 3] < 255 { transparent += 1 }
            }
            if transparent > 0 {
                throw MediaFormatError.unsupported("a \(format) with transparent pixels (\(transparent) of \(pixels) are not opaque)")
            }
        }
        let overWhite = self == .overWhite
        storage.withUnsafeMutableBufferPointer { buffer in
            // Forward in place: pixel p's four bytes are read before its three, which end at or before them, are written.
            for p in 0..<pixels {
                let a = Int(buffer[4 * p + 3])
                for c in 0..<3 {
                    let value = Int(buffer[4 * p + c])
                    buffer[3 * p + c] = overWhite ? UInt8((value * a + 255 * (255 - a) + 127) / 255) : UInt8(value)
                }
            }
        }
        storage.removeLast(pixels)
    }
}
