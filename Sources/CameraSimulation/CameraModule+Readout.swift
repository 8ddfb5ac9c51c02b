import CaptureCore
import Foundation

extension CameraModule {
    /// The sensor readout for a still of `size`: the area of the sensor's own aspect ratio (4:3)
    /// whose width is the photo's. Wider photos (16:9) are cropped from its centre rows.
    public func readoutSize(forPhoto size: Size) -> Size {
        let aspect = Double(nativeSize.height) / Double(nativeSize.width)
        let height = max(size.height, Int((Double(size.width) * aspect).rounded()) & ~1)
        return Size(width: size.width, height: height)
    }

    /// The 35 mm-equivalent focal length of a still of `size` (EXIF FocalLengthIn35mmFilm): `focalLength35mmEquivalent`
    /// is the full sensor's; a wider photo, cropped from the centre rows, has a shorter diagonal, so its equivalent is
    /// longer by the ratio of the diagonals (a 16:9 crop of the 28 mm 4:3 sensor: 30.5 mm). A photo no wider than the
    /// sensor's aspect ratio has the full sensor's.
    public func focalLength35mmEquivalent(forPhoto size: Size) -> Double {
        guard size.width > 0, size.height > 0 else { return focalLength35mmEquivalent }
        let sensorAspect = Double(nativeSize.height) / Double(nativeSize.width)
        let aspect = min(Double(size.height) / Double(size.width), sensorAspect)
        return focalLength35mmEquivalent * ((1 + sensorAspect * sensorAspect) / (1 + aspect * aspect)).squareRoot()
    }

    /// Horizontal field of view in degrees of the full sensor width through this lens (thin lens at infinity).
    public var horizontalFieldOfView: Double {
        let sensorWidthMM = Double(nativeSize.width) * pixelPitch / 1000
        return 2 * atan(sensorWidthMM / (2 * focalLength)) * 180 / .pi
    }

    /// Whether a readout of `size` is binned (at most half the sensor's width).
    public func isBinned(_ size: Size) -> Bool { size.width * 2 <= nativeSize.width }
}
