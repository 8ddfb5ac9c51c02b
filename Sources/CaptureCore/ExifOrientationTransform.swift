/// The geometry of applying an EXIF orientation to an image of `size` that is stored "up": the
/// displayed image is the stored one with `.right` (6) rotated 90° clockwise, `.left` (8) 90°
/// counter-clockwise, `.down` (3) 180°, the mirrored ones flipped as EXIF defines.
///
/// A point p (image coordinates, (0,0) = top-left corner) moves to M·p + offset, where M is a
/// signed permutation of the axes; the same M turns the camera frame's x, y axes, so calibrations
/// follow their images. The one home of this geometry for depth maps, mattes, calibrations and radiance images.
package struct ExifOrientationTransform {
    /// Rows of M.
    let m00: Int, m01: Int, m10: Int, m11: Int
    package let sourceSize: Size

    /// The transform of EXIF orientation `exifOrientation` (1…8; any other value is taken as 1, "up").
    package init(exifOrientation: Int, size: Size) {
        sourceSize = size
        switch exifOrientation {
        case 2: (m00, m01, m10, m11) = (-1, 0, 0, 1)   // mirrored
        case 3: (m00, m01, m10, m11) = (-1, 0, 0, -1)  // 180°
        case 4: (m00, m01, m10, m11) = (1, 0, 0, -1)   // flipped
        case 5: (m00, m01, m10, m11) = (0, 1, 1, 0)    // transpose
        case 6: (m00, m01, m10, m11) = (0, -1, 1, 0)   // 90° clockwise
        case 7: (m00, m01, m10, m11) = (0, -1, -1, 0)  // transverse
        case 8: (m00, m01, m10, m11) = (0, 1, -1, 0)   // 90° counter-clockwise
        default: (m00, m01, m10, m11) = (1, 0, 0, 1)
        }
    }

    /// Whether the transform leaves every pixel where it is.
    package var isIdentity: Bool { m00 == 1 && m11 == 1 }

    /// Whether width and height trade places.
    package var swapsAxes: Bool { m00 == 0 }

    package var destinationSize: Size {
        swapsAxes ? Size(width: sourceSize.height, height: sourceSize.width) : sourceSize
    }

    /// The translation that brings M·image back to (0,0)…(W', H').
    private var offset: (x: Int, y: Int) {
        let w = sourceSize.width, h = sourceSize.height
        return ((m00 < 0 ? w : 0) + (m01 < 0 ? h : 0), (m10 < 0 ? w : 0) + (m11 < 0 ? h : 0))
    }

    /// Where a point of the stored image lands.
    package func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let t = offset
        return SIMD2(Double(m00) * p.x + Double(m01) * p.y + Double(t.x),
                     Double(m10) * p.x + Double(m11) * p.y + Double(t.y))
    }

    /// Where the pixel at (x, y) of the stored image lands (pixel centres in doubled coordinates stay integers:
    /// 2p' = M(2x+1, 2y+1) + 2t).
    @inline(__always)
    private func destination(x: Int, y: Int) -> (x: Int, y: Int) {
        let t = offset
        return ((m00 * (2 * x + 1) + m01 * (2 * y + 1) + 2 * t.x - 1) / 2, (m10 * (2 * x + 1) + m11 * (2 * y + 1) + 2 * t.y - 1) / 2)
    }

    /// The raster's pixels moved (all channels, bit for bit); `raster` must be `sourceSize`.
    package func apply<T>(_ raster: Raster<T>) -> Raster<T> {
        guard !isIdentity, raster.width == sourceSize.width, raster.height == sourceSize.height else { return raster }
        let size = destinationSize, c = raster.channels
        var storage = raster.storage
        raster.storage.withUnsafeBufferPointer { source in
            storage.withUnsafeMutableBufferPointer { target in
                for y in 0..<raster.height {
                    for x in 0..<raster.width {
                        let d = destination(x: x, y: y)
                        for k in 0..<c { target[(d.y * size.width + d.x) * c + k] = source[(y * raster.width + x) * c + k] }
                    }
                }
            }
        }
        return Raster(width: size.width, height: size.height, channels: c, storage: storage)
    }

    /// The buffer's pixels moved (bit for bit, any one-plane format), or nil if the buffer is
    /// planar or cannot be allocated.
    package func apply(_ buffer: PixelBuffer) -> PixelBuffer? {
        guard !buffer.isPlanar, buffer.width == sourceSize.width, buffer.height == sourceSize.height,
              let source = buffer.baseAddress() else { return nil }
        let size = destinationSize
        guard let result = PixelBuffer(width: size.width, height: size.height, pixelFormat: buffer.pixelFormat),
              let target = result.baseAddress() else { return nil }
        let bpp = buffer.planes[0].bytesPerPixel, inStride = buffer.bytesPerRow, outStride = result.bytesPerRow
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let d = destination(x: x, y: y)
                (target + d.y * outStride + d.x * bpp).copyMemory(from: source + y * inStride + x * bpp, byteCount: bpp)
            }
        }
        return result
    }

    /// The calibration of the oriented image: reference dimensions, focal lengths, principal point
    /// and distortion centre follow the pixels; the camera frame turns with M (R' = O R Oᵀ,
    /// t' = O t), so extrinsics stay consistent when every image of the device is oriented alike.
    /// Pixel size and the radial lookup tables do not change. Uses the calibration's own
    /// reference dimensions, whatever size the map has.
    package static func apply(exifOrientation: Int, to calibration: CameraCalibration) -> CameraCalibration {
        let t = ExifOrientationTransform(exifOrientation: exifOrientation, size: calibration.referenceDimensions)
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
