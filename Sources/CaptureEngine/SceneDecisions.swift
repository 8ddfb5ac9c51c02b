import CameraSimulation

/// The scene decisions a phone makes before a capture, in one place: the capture planner and the
/// output's scene monitoring (`isFlashScene`, `isStillImageStabilizationScene`) both call these.
package enum SceneDecisions {
    /// Whether the flash fires: `.on` when the device has one, `.auto` only when the metered scene is dark.
    package static func firesFlash(_ policy: FlashPolicy, hasFlash: Bool, ambient: ExposureMetering) -> Bool {
        switch policy {
        case .off: return false
        case .on: return hasFlash
        case .auto: return hasFlash && ambient.flashRecommended
        }
    }

    /// Whether automatic still-image stabilisation fuses several exposures: in low light, without
    /// flash or manual exposure, unless the request prioritises speed.
    package static func usesStabilization(allowed: Bool, quality: QualityPriority, manualExposure: Bool,
                                          ambient: ExposureMetering, flash: Bool) -> Bool {
        allowed && !flash && !manualExposure && ambient.isLowLight && quality != .speed
    }

    /// Frames merged by still-image stabilisation.
    package static func stabilizationFrameCount(_ quality: QualityPriority) -> Int { quality == .quality ? 6 : 4 }
}
