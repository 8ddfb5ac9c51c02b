extension PixelBuffer {
    /// A copy mirrored left to right (each row reversed), or with `topToBottom` upside down (the rows in reverse
    /// order): what a mirrored connection delivers. Each plane is mirrored in its own units (a 4:2:0 chroma plane by
    /// Cb/Cr pairs, so an odd width's chroma lands half a sample off); attachments are copied. Nil for Bayer formats
    /// (a mirrored mosaic would change its CFA pattern) or if the copy cannot be allocated.
    public func mirrored(topToBottom: Bool = false) -> PixelBuffer? {
        ExifOrientationTransform(exifOrientation: topToBottom ? 4 : 2, size: Size(width: width, height: height)).apply(self)
    }

    /// Mirrored about the vertical axis of the picture as shown turned `rotation` degrees clockwise (what a mirrored,
    /// rotated connection means): left to right, or top to bottom where the turn is a quarter.
    public func mirroredAsShown(turnedBy rotation: Int) -> PixelBuffer? {
        mirrored(topToBottom: Self.mirrorsTopToBottom(turnedBy: rotation))
    }

    /// Whether mirroring the picture as shown turned `rotation` degrees clockwise mirrors the stored rows top to
    /// bottom (a quarter turn) rather than left to right: the rule for frames, movies and depth maps alike.
    public static func mirrorsTopToBottom(turnedBy rotation: Int) -> Bool { (rotation % 180 + 180) % 180 == 90 }
}
