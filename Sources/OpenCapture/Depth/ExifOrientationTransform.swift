import CaptureCore

/// The geometry of applying an EXIF orientation to an image of `size` that is stored "up": the
/// displayed image is the stored one with `.right` (6) rotated 90° clockwise, `.left` (8) 90°
/// counter-clockwise, `.down` (3) 180°, the mirrored ones flipped as EXIF defines.
///
/// A point p (image coordinates, (0,0) = top-left corner) moves to M·p + offset, where M is a
/// signed permutation of the axes; the same M turns the camera frame's x, y axes, so calibrations
/// follow their images. The one home of this geometry for depth maps, mattes and calibrations.
struct ExifOrientationTransform {
    /// Rows of M.
    let m00: Int, m01: Int, m10: Int, m11: Int
    let sourceSize: Size

    init(_ orientation: CGImagePropertyOrientation, size: Size) {
        sourceSize = size
        switch orientation {
        case .up: (m00, m01, m10, m11) = (1, 0, 0, 1)
        case .upMirrored: (m00, m01, m10, m11) = (-1, 0, 0, 1)
        case .down: (m00, m01, m10, m11) = (-1, 0, 0, -1)
        case .downMirrored: (m00, m01, m10, m11) = (1, 0, 0, -1)
        case .leftMirrored: (m00, m01, m10, m11) = (0, 1, 1, 0)     // transpose
        case .right: (m00, m01, m10, m11) = (0, -1, 1, 0)           // 90° clockwise
        case .rightMirrored: (m00, m01, m10, m11) = (0, -1, -1, 0)  // transverse
        case .left: (m00, m01, m10, m11) = (0, 1, -1, 0)            // 90° counter-clockwise
        }
    }

    /// Whether width and height trade places.
    var swapsAxes: Bool { m00 == 0 }

    var destinationSize: Size {
        swapsAxes ? Size(width: sourceSize.height, height: sourceSize.width) : sourceSize
    }

    /// The translation that brings M·image back to (0,0)…(W', H').
    private var offset: (x: Int, y: Int) {
        let w = sourceSize.width, h = sourceSize.height
        return ((m00 < 0 ? w : 0) + (m01 < 0 ? h : 0), (m10 < 0 ? w : 0) + (m11 < 0 ? h : 0))
    }

    /// Where a point of the stored image lands.
    func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let t = offset
        return SIMD2(Double(m00) * p.x + Double(m01) * p.y + Double(t.x),
                     Double(m10) * p.x + Double(m11) * p.y + Double(t.y))
    }

    /// The buffer's pixels moved (bit for bit, any one-plane format), or nil if the buffer is
    /// planar or cannot be allocated.
    func apply(_ buffer: PixelBuffer) -> PixelBuffer? {
        guard !buffer.isPlanar, buffer.width == sourceSize.width, buffer.height == sourceSize.height,
              let source = buffer.baseAddress() else { return nil }
        let size = destinationSize
        guard let result = PixelBuffer(width: size.width, height: size.height, pixelFormat: buffer.pixelFormat),
              let target = result.baseAddress() else { return nil }
        let bpp = buffer.planes[0].bytesPerPixel, inStride = buffer.bytesPerRow, outStride = result.bytesPerRow
        let t = offset
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                // Pixel centres in doubled coordinates stay integers: 2p' = M(2x+1, 2y+1) + 2t.
                let u = (m00 * (2 * x + 1) + m01 * (2 * y + 1) + 2 * t.x - 1) / 2
                let v = (m10 * (2 * x + 1) + m11 * (2 * y + 1) + 2 * t.y - 1) / 2
                (target + v * outStride + u * bpp).copyMemory(from: source + y * inStride + x * bpp, byteCount: bpp)
            }
        }
        return result
    }

    /// The calibration of the oriented image: reference dimensions, focal lengths, principal point
    /// and distortion centre follow the pixels; the camera frame turns with M (R' = O R Oᵀ,
    /// t' = O t), so extrinsics stay consistent when every image of the device is oriented alike.
    /// Pixel size and the radial lookup tables do not change. Uses the calibration's own
    /// reference dimensions, whatever size the map has.
    static func apply(_ orientation: CGImagePropertyOrientation, to calibration: CameraCalibration) -> CameraCalibration {
        let t = ExifOrientationTransform(orientation, size: calibration.referenceDimensions)
        var result = calibration
        result.referenceDimensions = t.destinationSize
        if t.swapsAxes { result.focalLength = SIMD2(calibration.focalLength.y, calibration.focalLength.x) }
        result.principalPoint = t.apply(calibration.principalPoint)
        result.lensDistortionCenter = t.apply(calibration.lensDistortionCenter)
        let o = Matrix3(rowMajor: [Double(t.m00), Double(t.m01), 0, Double(t.m10), Double(t.m11), 0, 0, 0, 1])
        let oT = Matrix3(rowMajor: [Double(t.m00), Double(t.m10), 0, Double(t.m01), Double(t.m11), 0, 0, 0, 1])
        result.rotation = o * calibration.rotation * oT
        result.translation = o * calibration.translation
        return result
    }
}
