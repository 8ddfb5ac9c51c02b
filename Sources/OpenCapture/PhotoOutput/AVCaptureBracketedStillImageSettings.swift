import Foundation

/// Abstract settings of one shot in a bracket (Apple's `AVCaptureBracketedStillImageSettings`,
/// not constructible): use the auto- or manual-exposure subclass.
///
/// `@unchecked Sendable`: no stored properties; the subclasses hold immutable `let`s.
public class AVCaptureBracketedStillImageSettings: NSObject, @unchecked Sendable {
    override init() { super.init() }
}

/// Sentinel for `autoExposureSettings(exposureTargetBias:)`: the device's current bias.
public let AVCaptureExposureTargetBiasCurrent: Float = .greatestFiniteMagnitude
/// Sentinel for `manualExposureSettings(exposureDuration:iso:)`: the device's current duration.
public let AVCaptureExposureDurationCurrent = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
/// Sentinel for `manualExposureSettings(exposureDuration:iso:)`: the device's current ISO.
public let AVCaptureISOCurrent: Float = 0
