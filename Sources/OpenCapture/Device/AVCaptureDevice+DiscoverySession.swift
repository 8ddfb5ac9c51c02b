extension AVCaptureDevice {
    /// Finds devices by type, media type and position (Apple's `AVCaptureDevice.DiscoverySession`).
    /// Devices come in the order of `deviceTypes`. The microphone (`.microphone` or `.builtInMicrophone`) is found
    /// for the audio media type or none, as on iOS (its position is `.unspecified`, so only `.unspecified` finds it).
    ///
    /// `@unchecked Sendable`: every stored property is an immutable `let`.
    public final class DiscoverySession: @unchecked Sendable {
        public let devices: [AVCaptureDevice]

        public init(deviceTypes: [DeviceType], mediaType: AVMediaType?, position: Position) {
            let all = AVCaptureDevice.allDevices + [AVCaptureDevice.microphone]
            var found: [AVCaptureDevice] = []
            for type in deviceTypes {
                let isMicrophoneType = type == .microphone || type == .builtInMicrophone
                for device in all where !found.contains(where: { $0 === device }) {
                    guard isMicrophoneType ? device.isMicrophone : device.deviceType == type else { continue }
                    guard mediaType.map(device.hasMediaType) ?? true else { continue }
                    guard position == .unspecified || device.position == position else { continue }
                    found.append(device)
                }
            }
            devices = found
        }

        /// Sets of devices that can run at the same time in a multi-camera session (none are simulated yet).
        public var supportedMultiCamDeviceSets: [Set<AVCaptureDevice>] { [] }
    }
}
