extension PixelBuffer {
    /// A copy mirrored left to right (each row reversed), or with `topToBottom` upside down (the rows in reverse
    /// order): what a mirrored connection delivers. Each plane is mirrored in its own units (a 4:2:0 chroma plane by
    /// Cb/Cr pairs, so an odd width's chroma lands half a sample off); attachments are copied. Nil for Bayer formats
    /// (a mirrored mosaic would change its CFA pattern) or if the copy cannot be allocated.
    public func mirrored(topToBottom: Bool = false) -> PixelBuffer? {
        let bayer = CFAPattern.allCases.contains { $0.bayer14FourCC == pixelFormat }
        guard !bayer, let copy = PixelBuffer(width: width, height: height, pixelFormat: pixelFormat) else { return nil }
        for (index, plane) in planes.enumerated() {
            guard let source = baseAddress(ofPlane: index), let target = copy.baseAddress(ofPlane: index) else { continue }
            let rowBytes = plane.width * plane.bytesPerPixel, size = plane.bytesPerPixel
            for y in 0..<plane.height {
                let from = UnsafeRawPointer(source + y * plane.bytesPerRow)
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

    /// Mirrored about the vertical axis of the picture as shown turned `rotation` degrees clockwise (what a mirrored,
    /// rotated connection means): left to right, or top to bottom where the turn is a quarter.
    public func mirroredAsShown(turnedBy rotation: Int) -> PixelBuffer? {
        mirrored(topToBottom: Self.mirrorsTopToBottom(turnedBy: rotation))
    }

    /// Whether mirroring the picture as shown turned `rotation` degrees clockwise mirrors the stored rows top to
    /// bottom (a quarter turn) rather than left to right: the rule for frames, movies and depth maps alike.
    public static func mirrorsTopToBottom(turnedBy rotation: Int) -> Bool { (rotation % 180 + 180) % 180 == 90 }

    /// `count` samples of `T` from `source` written to `target` in reverse order (bytes, without binding the memory).
    private static func reverse<T: FixedWidthInteger>(_: T.Type, _ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer,
                                                      count: Int) {
        let size = MemoryLayout<T>.size
        for x in 0..<count {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: x * size, as: T.self),
                              toByteOffset: (count - 1 - x) * size, as: T.self)
        }
    }
}
