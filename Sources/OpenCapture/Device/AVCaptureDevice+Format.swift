import CameraSimulation
import CaptureCore
import Foundation

extension AVCaptureDevice {
    /// One capture format of a device: its video dimensions, still-photo sizes and exposure ranges.
    /// Mirrors Apple's `AVCaptureDevice.Format`.
    ///
        /// `@unchecked Sendable`: every stored property is an immutable `let`.
        public final class Format: NSObject, @unchecked Sendable {
        public let formatDescription: CMFormatDescription
        /// `.video` for capture formats, `.depthData` for the entries of `supportedDepthDataFormats`.
        public let mediaType: AVMediaType
        /// Largest still size the format can deliver (deprecated in iOS 16 in favour of `supportedMaxPhotoDimensions`).
        public let highResolutionStillImageDimensions: CMVideoDimensions
        /// Photo sizes available as `AVCapturePhotoOutput.maxPhotoDimensions`, smallest first.
        public let supportedMaxPhotoDimensions: [CMVideoDimensions]
        public let minISO: Float
        public let maxISO: Float
        public let minExposureDuration: CMTime
        public let maxExposureDuration: CMTime
        /// Horizontal field of view in degrees.
        public let videoFieldOfView: Float
        /// Whether the sensor is read out binned for this format.
        public let isVideoBinned: Bool
        public let isHighPhotoQualitySupported: Bool = true
        public let videoMaxZoomFactor: CGFloat = 1
        /// Colour spaces the format can capture in: sRGB and, on formats up to 4:3 stills, Display P3
        /// (as on iPhones, whose photo formats support P3).
        public var supportedColorSpaces: [AVCaptureColorSpace] { [.sRGB, .P3_D65] }
        /// Frame-rate ranges (30 fps; 60 fps up to 1920×1080).
        public let videoSupportedFrameRateRanges: [AVFrameRateRange]
        /// Depth formats that can be active with this format (`AVCaptureDevice.activeDepthDataFormat`);
        /// empty for devices without depth and for depth formats themselves.
        public let supportedDepthDataFormats: [Format]

        /// The video (preview) dimensions of the format.
        var dimensions: Size {
            let d = formatDescription.dimensions
            return Size(width: Int(d.width), height: Int(d.height))
        }

        /// The sensor area read out for this format's size.
        var sensorReadoutSize: Size { module.readoutSize(forPhoto: dimensions) }
        /// The camera module the format belongs to.
        let module: CameraModule

        /// Formats of a module: the session presets' sizes plus the full sensor.
        static func formats(for module: CameraModule, deviceType: AVCaptureDevice.DeviceType) -> [Format] {
            let native = module.nativeSize
            let sizes: [Size] = [
                Size(width: 192, height: 144), Size(width: 352, height: 288), Size(width: 480, height: 360),
                Size(width: 640, height: 480), Size(width: 1280, height: 720), Size(width: 1920, height: 1080),
                Size(width: 1920, height: 1440), native,
            ]
            return sizes.map { size in
                let highRes = size.width * 9 == size.height * 16
                    ? Size(width: native.width, height: (native.width * 9 / 16) & ~1) : native
                return Format(dimensions: size, highResolution: highRes, module: module,
                              depthFormats: depthDataFormats(deviceType: deviceType, videoSize: size, module: module))
            }
        }

        init(dimensions: Size, highResolution: Size, module: CameraModule, depthFormats: [Format] = []) {
            self.module = module
            mediaType = .video
            supportedDepthDataFormats = depthFormats
            formatDescription = CMFormatDescription(dimensions: dimensions, mediaSubType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            highResolutionStillImageDimensions = CMVideoDimensions(width: Int32(highResolution.width), height: Int32(highResolution.height))
            let base = CMVideoDimensions(width: Int32(dimensions.width), height: Int32(dimensions.height))
            supportedMaxPhotoDimensions = dimensions == highResolution ? [base] : [base, highResolutionStillImageDimensions]
            minISO = Float(module.isoRange.lowerBound)
            maxISO = Float(module.isoRange.upperBound)
            minExposureDuration = CMTime(seconds: module.exposureDurationRange.lowerBound, preferredTimescale: 1_000_000_000)
            maxExposureDuration = CMTime(seconds: module.exposureDurationRange.upperBound, preferredTimescale: 1_000_000_000)
            videoFieldOfView = Float(module.horizontalFieldOfView)
            isVideoBinned = module.isBinned(dimensions)
            let fps = dimensions.width <= 1920 ? 60.0 : 30.0
            videoSupportedFrameRateRanges = [AVFrameRateRange(minFrameRate: 1, maxFrameRate: fps)]
            super.init()
        }

        /// The microphone's one format: 16-bit linear PCM ('lpcm'), 48 kHz mono, no video or photo sizes.
        init(audioFor module: CameraModule) {
            self.module = module
            mediaType = .audio
            supportedDepthDataFormats = []
            formatDescription = CMFormatDescription(dimensions: Size(width: 0, height: 0), mediaSubType: 0x6C70_636D)  // 'lpcm'
            highResolutionStillImageDimensions = CMVideoDimensions()
            supportedMaxPhotoDimensions = []
            minISO = 0
            maxISO = 0
            minExposureDuration = .zero
            maxExposureDuration = .zero
            videoFieldOfView = 0
            isVideoBinned = false
            videoSupportedFrameRateRanges = []
            super.init()
        }

        /// A depth format ('dpth') of `dimensions` storing `depthDataType`; no photo sizes, as on iPhones.
        init(depthDimensions dimensions: Size, depthDataType: OSType, module: CameraModule) {
            self.module = module
            mediaType = .depthData
            supportedDepthDataFormats = []
            formatDescription = CMFormatDescription(dimensions: dimensions, mediaSubType: depthDataType)
            highResolutionStillImageDimensions = CMVideoDimensions()
            supportedMaxPhotoDimensions = []
            minISO = Float(module.isoRange.lowerBound)
            maxISO = Float(module.isoRange.upperBound)
            minExposureDuration = CMTime(seconds: module.exposureDurationRange.lowerBound, preferredTimescale: 1_000_000_000)
            maxExposureDuration = CMTime(seconds: module.exposureDurationRange.upperBound, preferredTimescale: 1_000_000_000)
            videoFieldOfView = Float(module.horizontalFieldOfView)
            isVideoBinned = false
            videoSupportedFrameRateRanges = [AVFrameRateRange(minFrameRate: 2, maxFrameRate: 30)]
            super.init()
        }

        /// Whether connections using this format can apply `videoStabilizationMode`. OpenCapture: only `.off` — the
        /// simulated camera does not stabilise video yet (its frames keep the hand shake; photos have optical
        /// stabilisation where the module has it).
        public func isVideoStabilizationModeSupported(_ videoStabilizationMode: AVCaptureVideoStabilizationMode) -> Bool {
            videoStabilizationMode == .off
        }

        public override var description: String {
            if mediaType == .depthData { return depthFormatDescription }
            if mediaType == .audio { return "<AVCaptureDeviceFormat 'soun'/'lpcm' 48000 Hz, 16-bit, mono>" }
            let d = formatDescription.dimensions
            let hr = highResolutionStillImageDimensions
            return "<AVCaptureDeviceFormat \(d.width)x\(d.height), photo up to \(hr.width)x\(hr.height), ISO \(Int(minISO))-\(Int(maxISO)), \(String(format: "%.0f", videoFieldOfView))° FOV>"
        }
    }
}
