extension AVCaptureConnection {
    /// Whether the connection can stabilise its video. Apple: only video connections, and not at every resolution.
    /// OpenCapture: false — no simulated format stabilises video yet (`AVCaptureDevice.Format
    /// .isVideoStabilizationModeSupported(_:)` is true only for `.off`), so apps that check it, as AVCam does before
    /// setting `preferredVideoStabilizationMode`, record unstabilised video as on a device without stabilisation.
    public var isVideoStabilizationSupported: Bool {
        guard mediaType == .video, let format = input?.device.activeFormat else { return false }
        return AVCaptureVideoStabilizationMode.allCases.contains { $0 != .off && $0 != .auto && format.isVideoStabilizationModeSupported($0) }
    }

    /// The stabilisation the app would like (default `.off`). Apple keeps the preference and applies it when the
    /// connection's format supports it; `activeVideoStabilizationMode` says what is applied. Kept here as well.
    public var preferredVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        get { withConnectionLock { preferredStabilization } }
        set { withConnectionLock { preferredStabilization = newValue } }
    }

    /// The stabilisation applied to the connection's video: the preferred mode when the active format supports it
    /// (`.auto` resolving to `.standard` or `.off`), else `.off`. Never `.auto`. With the simulated formats, `.off`.
    public var activeVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        guard mediaType == .video, let format = input?.device.activeFormat else { return .off }
        switch preferredVideoStabilizationMode {
        case .off: return .off
        case .auto: return format.isVideoStabilizationModeSupported(.standard) ? .standard : .off
        case let mode: return format.isVideoStabilizationModeSupported(mode) ? mode : .off
        }
    }

    /// Deprecated (iOS 6–8): whether stabilisation is active, `activeVideoStabilizationMode != .off`.
    @available(*, deprecated, message: "Use activeVideoStabilizationMode")
    public var isVideoStabilizationEnabled: Bool { activeVideoStabilizationMode != .off }

    /// Deprecated (iOS 6–8): `preferredVideoStabilizationMode` as a Bool (true is `.auto`).
    @available(*, deprecated, message: "Use preferredVideoStabilizationMode")
    public var enablesVideoStabilizationWhenAvailable: Bool {
        get { preferredVideoStabilizationMode != .off }
        set { preferredVideoStabilizationMode = newValue ? .auto : .off }
    }
}
