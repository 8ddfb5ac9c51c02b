extension AVCaptureDevice {
    /// Finds devices by type, media type and position (Apple's `AVCaptureDevice.DiscoverySession`).
    /// Devices come in the order of `deviceTypes`.
    ///
    /// `@unchecked Sendable`: every stored property is an immutable `let`.
    public final class DiscoverySession: @unchecked Sendable {
        public let devices: [AVCaptureDevice]

        public init(deviceTypes: [DeviceType], mediaType: AVMediaType?, position: Position) {
            if let mediaType, mediaType != .video {
                devices = []
                return
            }
            let all = AVCaptureDevice.allDevices
            devices = deviceTypes.flatMap { type in
                all.filter { $0.deviceType == type && (position == .unspecified || $0.position == position) }
            }
        }

        /// Sets of devices that can run at the same time in a multi-camera session (none are simulated yet).
        public var supportedMultiCamDeviceSets: [Set<AVCaptureDevice>] { [] }
    }
}
