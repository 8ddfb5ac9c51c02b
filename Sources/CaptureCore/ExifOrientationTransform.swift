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

    /// The EXIF orientation whose M is [[m00, m01], [m10, m11]] (each 0 or ±1), or nil when no orientation turns the
    /// axes so (a rotation other than a quarter turn, a skew): how a movie's display matrix is read as an orientation.
    package static func exifOrientation(m00: Int, m01: Int, m10: Int, m11: Int) -> Int? {
        (1...8).first { orientation in
            let t = ExifOrientationTransform(exifOrientation: orientation, size: Size(width: 1, height: 1))
            return (t.m00, t.m01, t.m10, t.m11) == (m00, m01, m10, m11)
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

    /// The buffer's pixels moved, bit for bit, every plane in its own units (a 4:2:0 chroma plane by Cb/Cr pairs, so
    /// an odd width's chroma lands half a sample off), attachments copied. Nil for a buffer not `sourceSize`, a Bayer
    /// mosaic (moved, its CFA pattern would change) or a copy that cannot be allocated. The flips (2, 4) move whole
    /// rows: what mirrored connections do to every stream frame.
    package func apply(_ buffer: PixelBuffer) -> PixelBuffer? {
        let bayer = CFAPattern.allCases.contains { $0.bayer14FourCC == buffer.pixelFormat }
        guard !bayer, buffer.width == sourceSize.width, buffer.height == sourceSize.height else { return nil }
        let size = destinationSize
        guard let result = PixelBuffer(width: size.width, height: size.height, pixelFormat: buffer.pixelFormat),
              result.planes.count == buffer.planes.count else { return nil }
        for (index, plane) in buffer.planes.enumerated() {
            guard let source = buffer.baseAddress(ofPlane: index), let target = result.baseAddress(ofPlane: index) else { continue }
            let planeTransform = ExifOrientationTransform(m00: m00, m01: m01, m10: m10, m11: m11,
                                                          sourceSize: Size(width: plane.width, height: plane.height))
            planeTransform.move(UnsafeRawPointer(source), stride: plane.bytesPerRow, bytesPerPixel: plane.bytesPerPixel,
                                into: target, stride: result.planes[index].bytesPerRow)
        }
        result.attachments = buffer.attachments
        return result
    }

    private init(m00: Int, m01: Int, m10: Int, m11: Int, sourceSize: Size) {
        (self.m00, self.m01, self.m10, self.m11, self.sourceSize) = (m00, m01, m10, m11, sourceSize)
    }

    /// Moves one plane of `sourceSize` pixels of `bytesPerPixel` bytes.
    private func move(_ source: UnsafeRawPointer, stride inStride: Int, bytesPerPixel bpp: Int,
                      into target: UnsafeMutableRawPointer, stride outStride: Int) {
        let w = sourceSize.width, h = sourceSize.height
        if m01 == 0, m10 == 0 {
            // Flips and the identity: whole rows, in order or reversed, each kept or reversed.
            for y in 0..<h {
                let from = source + y * inStride, to = target + (m11 < 0 ? h - 1 - y : y) * outStride
                guard m00 < 0 else { to.copyMemory(from: from, byteCount: w * bpp); continue }
                switch bpp {
                case 1: Self.reverse(UInt8.self, from, to, count: w)
                case 2: Self.reverse(UInt16.self, from, to, count: w)
                case 4: Self.reverse(UInt32.self, from, to, count: w)
                default: for x in 0..<w { (to + (w - 1 - x) * bpp).copyMemory(from: from + x * bpp, byteCount: bpp) }
                }
            }
            return
        }
        for y in 0..<h {
            for x in 0..<w {
                let d = destination(x: x, y: y)
                (target + d.y * outStride + d.x * bpp).copyMemory(from: source + y * inStride + x * bpp, byteCount: bpp)
            }
        }
    }

    /// `count` samples of `T` from `source` written to `target` in reverse order (bytes, without binding the memory).
    private static func reverse<T: FixedWidthInteger>(_: T.Type, _ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer,
                                                      count: Int) {
        let size = MemoryLayout<T>.size
        for x in 0..<count {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: x * size, as: T.self),
                              toByteOffset: (count - 1 - x) * size, as: T.self)
        }
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
