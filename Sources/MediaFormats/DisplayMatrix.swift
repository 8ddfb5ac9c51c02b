import CaptureCore

/// A video track's display matrix — QuickTime's `tkhd` matrix, which FFmpeg hands on as display-matrix side data —
/// read as the quarter turn or mirror players apply to the stored frames: an iPhone's portrait movie is stored
/// landscape with a matrix that turns it 90° clockwise. Matrices that are no quarter turn (a skew, 45°) show as stored.
public struct DisplayMatrix: Sendable, Equatable {
    /// The matrix's a, b, c, d terms (16.16 fixed point): a point (x, y) is shown at (a·x + c·y, b·x + d·y) + translation.
    public var a: Int32, b: Int32, c: Int32, d: Int32

    /// No turn.
    public static let identity = DisplayMatrix(a: 0x10000, b: 0, c: 0, d: 0x10000)

    public init(a: Int32, b: Int32, c: Int32, d: Int32) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// The matrix from its nine stored values in file order (a, b, u, c, d, v, x, y, w); nil with fewer.
    public init?(_ values: [Int32]) {
        guard values.count >= 9 else { return nil }
        self.init(a: values[0], b: values[1], c: values[3], d: values[4])
    }

    /// The EXIF orientation (1…8) that shows the stored frames as the matrix does: 6 for a 90° clockwise turn, 8 for
    /// 90° counter-clockwise, 3 for 180°, 2/4/5/7 for the mirrored ones; 1 for none or a matrix that is no quarter turn.
    public var exifOrientation: Int {
        // Each term rounded to −1, 0 or 1 (a matrix scaled as well as turned still reads as its turn).
        func unit(_ v: Int32) -> Int { abs(Int(v)) < 0x8000 ? 0 : (v < 0 ? -1 : 1) }
        return ExifOrientationTransform.exifOrientation(m00: unit(a), m01: unit(c), m10: unit(b), m11: unit(d)) ?? 1
    }

    /// Whether width and height trade places as shown (a quarter turn): a 1920×1080 track shows 1080×1920.
    public var swapsSides: Bool { [5, 6, 7, 8].contains(exifOrientation) }
}
