extension ColorSpace {
    /// An 8-bit image encoded in `source` (its primaries, the sRGB curve) re-encoded in this space, colours outside
    /// it clipped: e.g. a Display P3 preview for a reader that assumes sRGB. The same image when the spaces match.
    public func converting(_ image: Raster<UInt8>, from source: ColorSpace) -> Raster<UInt8> {
        guard source != self, image.channels >= 3 else { return image }
        let m = conversion(from: source)
        let rows = (0..<3).map { r in SIMD3<Float>(Float(m[r, 0]), Float(m[r, 1]), Float(m[r, 2])) }
        let decode = SRGBTransfer.decodeTable8
        var out = image
        let c = image.channels
        out.storage.withUnsafeMutableBufferPointer { pixels in
            for p in stride(from: 0, to: pixels.count - c + 1, by: c) {
                let linear = SIMD3(decode[Int(pixels[p])], decode[Int(pixels[p + 1])], decode[Int(pixels[p + 2])])
                for k in 0..<3 {
                    let v = min(max((rows[k] * linear).sum(), 0), 1)
                    pixels[p + k] = UInt8((SRGBTransfer.encode(v) * 255).rounded())
                }
            }
        }
        return out
    }
}
