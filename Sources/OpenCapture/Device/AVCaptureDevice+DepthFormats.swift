import CameraSimulation
import CaptureCore

// Which depth formats each simulated device offers: the one rule table for
// `AVCaptureDevice.Format.supportedDepthDataFormats` and the default `activeDepthDataFormat`.
extension AVCaptureDevice.Format {
    /// Depth map sizes a device type offers with a video format of `videoSize`, smallest first.
    /// As on iPhones, only 4:3 formats have depth (depth matches the video's aspect ratio):
    /// the dual camera gives 768×576 with the photo formats (1920×1440 and up) and 320×240 with
    /// those and the smaller 4:3 formats; the TrueDepth camera 640×480 and 320×240. A depth map is
    /// never wider than its video. Single cameras have none.
    static func depthSizes(deviceType: AVCaptureDevice.DeviceType, videoSize: Size) -> [Size] {
        let w = videoSize.width, h = videoSize.height
        // 4:3 within 1 % (the front sensor's 3088×2320 is not exactly 4:3).
        guard w > 0, h > 0, abs(w * 3 - h * 4) * 100 <= h * 4 else { return [] }
        let candidates: [Size]
        switch deviceType {
        case .builtInDualCamera:
            candidates = w >= 1920 ? [Size(width: 320, height: 240), Size(width: 768, height: 576)]
                : [Size(width: 320, height: 240)]
        case .builtInTrueDepthCamera:
            candidates = [Size(width: 320, height: 240), Size(width: 640, height: 480)]
        default:
            candidates = []
        }
        return candidates.filter { $0.width <= w }
    }

    /// The depth formats of a video format: each size in every type of `DepthDataTypes.all`.
    static func depthDataFormats(deviceType: AVCaptureDevice.DeviceType, videoSize: Size,
                                 module: CameraModule) -> [AVCaptureDevice.Format] {
        depthSizes(deviceType: deviceType, videoSize: videoSize).flatMap { size in
            DepthDataTypes.all.map { AVCaptureDevice.Format(depthDimensions: size, depthDataType: $0, module: module) }
        }
    }

    /// The depth format a device picks when this format becomes active: Float16 disparity of the
    /// largest size; nil without depth.
    var defaultDepthDataFormat: AVCaptureDevice.Format? {
        supportedDepthDataFormats
            .filter { $0.formatDescription.mediaSubType == kCVPixelFormatType_DisparityFloat16 }
            .max { $0.formatDescription.dimensions.width < $1.formatDescription.dimensions.width }
    }

    /// Apple's style for depth formats: `'dpth'/'hdis'  640x 480, { 2- 30 fps}, fov:…`.
    var depthFormatDescription: String {
        let d = formatDescription.dimensions
        let width = String(d.width), height = String(d.height)
        let paddedWidth = String(repeating: " ", count: max(0, 4 - width.count)) + width
        let paddedHeight = String(repeating: " ", count: max(0, 4 - height.count)) + height
        return "<AVCaptureDeviceFormat 'dpth'/\(fourCharacterText(formatDescription.mediaSubType)) \(paddedWidth)x\(paddedHeight), "
            + "{ 2- 30 fps}, fov:\(videoFieldOfView)>"
    }
}

extension AVCaptureDevice {
    /// For the capture engine: the active depth format's data type (e.g. 'hdis') and map size;
    /// nil when the device has no active depth format.
    var activeDepthDataSelection: (depthDataType: OSType, size: Size)? {
        guard let format = activeDepthDataFormat else { return nil }
        let d = format.formatDescription.dimensions
        return (format.formatDescription.mediaSubType, Size(width: Int(d.width), height: Int(d.height)))
    }
}
