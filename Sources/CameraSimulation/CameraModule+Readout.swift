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

    /// Horizontal field of view in degrees of the full sensor width through this lens (thin lens at infinity).
    public var horizontalFieldOfView: Double {
        let sensorWidthMM = Double(nativeSize.width) * pixelPitch / 1000
        return 2 * atan(sensorWidthMM / (2 * focalLength)) * 180 / .pi
    }

    /// Whether a readout of `size` is binned (at most half the sensor's width).
    public func isBinned(_ size: Size) -> Bool { size.width * 2 <= nativeSize.width }
}
