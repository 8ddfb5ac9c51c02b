extension PixelBuffer {
    /// A copy mirrored left to right (each row reversed), or with `topToBottom` upside down (the rows in reverse
    /// order): what a mirrored connection delivers. Every plane of any format is mirrored in its own units (a 4:2:0
    /// chroma plane by Cb/Cr pairs); attachments are copied. Nil only if the copy cannot be allocated.
    public func mirrored(topToBottom: Bool = false) -> PixelBuffer? {
        guard let copy = PixelBuffer(width: width, height: height, pixelFormat: pixelFormat) else { return nil }
        for (index, plane) in planes.enumerated() {
            guard let source = baseAddress(ofPlane: index), let target = copy.baseAddress(ofPlane: index) else { continue }
            let rowBytes = plane.width * plane.bytesPerPixel, size = plane.bytesPerPixel
            for y in 0..<plane.height {
                let from = source + y * plane.bytesPerRow
                if topToBottom {
                    (target + (plane.height - 1 - y) * plane.bytesPerRow).copyMemory(from: from, byteCount: rowBytes)
                    continue
                }
                let to = target + y * plane.bytesPerRow
                switch size {
                case 1: Self.reverse(UInt8.self, from, to, count: plane.width)
                case 2: Self.reverse(UInt16.self, from, to, count: plane.width)
                case 4: Self.reverse(UInt32.self, from, to, count: plane.width)
                default:
                    for x in 0..<plane.width {
                        (to + (plane.width - 1 - x) * size).copyMemory(from: from + x * size, byteCount: size)
                    }
                }
            }
        }
        copy.attachments = attachments
        return copy
    }

    /// `count` samples of `T` from `source` written to `target` in reverse order.
    private static func reverse<T: FixedWidthInteger>(_: T.Type, _ source: UnsafeMutableRawPointer,
                                                      _ target: UnsafeMutableRawPointer, count: Int) {
        let from = source.assumingMemoryBound(to: T.self), to = target.assumingMemoryBound(to: T.self)
        for x in 0..<count { to[count - 1 - x] = from[x] }
    }
}
