import CameraSimulation
import CaptureCore
import CaptureEngine
import Dispatch
import Foundation
import ImagePipeline

/// White balance, as Apple's `AVCaptureDevice` exposes it (AVCamManual's controls). The simulated room is lit by
/// daylight-white (D65) light, which auto white balance finds; locked gains are what the ISP applies to photos
/// requested afterwards (their EXIF WhiteBalance says "manual"). Differences: the video stream (video data output,
/// movies, Live Photo movies) keeps auto white balance, and a RAW photo's DNG records the auto AsShotNeutral.
extension AVCaptureDevice {
    /// Sentinel for `setWhiteBalanceModeLocked(with:)`: keep the current gains (all zero, as Apple's).
    public static let currentWhiteBalanceGains = WhiteBalanceGains(redGain: 0, greenGain: 0, blueGain: 0)

    /// Every mode is supported on the simulated cameras; replayed frames (a replay device) support none but locked.
    public func isWhiteBalanceModeSupported(_ whiteBalanceMode: WhiteBalanceMode) -> Bool {
        whiteBalanceMode == .locked || replay == nil
    }

    /// Whether `setWhiteBalanceModeLocked(with:)` takes gains other than the current ones: true on simulated cameras.
    public var isLockingWhiteBalanceWithCustomDeviceGainsSupported: Bool { replay == nil }

    /// The white-balance mode (default `.continuousAutoWhiteBalance`). Setting it needs the configuration lock and a
    /// supported mode (else reported and ignored). `.locked` keeps the gains in use; `.autoWhiteBalance` finds white
    /// balance once (at once here) and then reports `.locked`.
    public var whiteBalanceMode: WhiteBalanceMode {
        get { withWhiteBalanceState { $0.mode } }
        set {
            guard requireConfigurationLock("whiteBalanceMode") else { return }
            guard isWhiteBalanceModeSupported(newValue) else {
                DeviceDiagnostics.report(ConfigurationError.unsupported("whiteBalanceMode \(newValue)"))
                return
            }
            let auto = autoWhiteBalanceGains
            withWhiteBalanceState { state in
                switch newValue {
                case .locked:
                    if state.lockedGains == nil { state.lockedGains = auto }
                    state.mode = .locked
                case .autoWhiteBalance:
                    state.lockedGains = auto
                    state.mode = .locked
                case .continuousAutoWhiteBalance:
                    state.lockedGains = nil
                    state.mode = .continuousAutoWhiteBalance
                }
            }
        }
    }

    /// Whether white balance is still settling: always false (the simulated white balance settles at once).
    public var isAdjustingWhiteBalance: Bool { false }

    /// The largest gain a channel may have (4, as on iPhones).
    public var maxWhiteBalanceGain: Float { 4 }

    /// The gains in use: the locked ones, else those auto white balance finds (each within `1…maxWhiteBalanceGain`).
    public var deviceWhiteBalanceGains: WhiteBalanceGains {
        let gains = withWhiteBalanceState { $0.lockedGains } ?? autoWhiteBalanceGains
        return WhiteBalanceGains(gains)
    }

    /// The gains that make the average of what the camera sees now neutral (grey world), from a raw frame exposed at
    /// the active format's readout size; scaled so the smallest is 1 and capped at `maxWhiteBalanceGain`.
    public var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains {
        let snapshot = captureSnapshot()
        let size = activeFormat.sensorReadoutSize
        let (duration, iso) = snapshot.currentExposure(size: size)
        let raw = snapshot.source.capture(SensorExposure(size: size, duration: duration, iso: iso,
                                                         seed: RandomSource.mix(snapshot.seed, 0x6A7),
                                                         focusDistance: snapshot.focus?.distance))
        let gains = WhiteBalanceConversion.gains(neutral: AutoWhiteBalance.estimate(raw))
        return WhiteBalanceGains(gains.clamped(lowerBound: SIMD3(repeating: 1), upperBound: SIMD3(repeating: Double(maxWhiteBalanceGain))))
    }

    /// Locks white balance at `whiteBalanceGains` (`currentWhiteBalanceGains` keeps the gains in use). Needs the
    /// configuration lock; a gain outside `1…maxWhiteBalanceGain` is reported and ignored, and the handler not called
    /// (Apple raises). The handler gets the host-clock time (`CMClockGetHostTimeClock()`) at which the gains took
    /// effect, on a global queue.
    public func setWhiteBalanceModeLocked(with whiteBalanceGains: WhiteBalanceGains, completionHandler handler: ((CMTime) -> Void)? = nil) {
        guard requireConfigurationLock("setWhiteBalanceModeLocked") else { return }
        let gains: SIMD3<Double>
        if whiteBalanceGains == AVCaptureDevice.currentWhiteBalanceGains {
            gains = withWhiteBalanceState { $0.lockedGains } ?? autoWhiteBalanceGains
        } else {
            guard isLockingWhiteBalanceWithCustomDeviceGainsSupported else {
                DeviceDiagnostics.report(ConfigurationError.unsupported("setWhiteBalanceModeLocked(with:) custom gains"))
                return
            }
            let values = [whiteBalanceGains.redGain, whiteBalanceGains.greenGain, whiteBalanceGains.blueGain]
            guard values.allSatisfy({ $0 >= 1 && $0 <= maxWhiteBalanceGain }) else {
                DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("white balance gains \(values)"))
                return
            }
            gains = SIMD3(Double(whiteBalanceGains.redGain), Double(whiteBalanceGains.greenGain), Double(whiteBalanceGains.blueGain))
        }
        withWhiteBalanceState { state in
            state.lockedGains = gains
            state.mode = .locked
        }
        Self.complete(handler)
    }

    /// The xy chromaticity of the light `whiteBalanceGains` make white, through this camera's colour response.
    public func chromaticityValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceChromaticityValues {
        let xy = WhiteBalanceConversion.chromaticity(gains: whiteBalanceGains.simd, module: module)
        return WhiteBalanceChromaticityValues(x: Float(xy.x), y: Float(xy.y))
    }

    /// The gains that make light of chromaticity `chromaticityValues` white (scaled so the smallest is 1; they may
    /// exceed `maxWhiteBalanceGain`, so clamp them before locking, as Apple says).
    public func deviceWhiteBalanceGains(for chromaticityValues: WhiteBalanceChromaticityValues) -> WhiteBalanceGains {
        WhiteBalanceGains(WhiteBalanceConversion.gains(chromaticity: SIMD2(Double(chromaticityValues.x), Double(chromaticityValues.y)),
                                                       module: module))
    }

    /// The correlated colour temperature and tint of the light `whiteBalanceGains` make white.
    public func temperatureAndTintValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues {
        let xy = WhiteBalanceConversion.chromaticity(gains: whiteBalanceGains.simd, module: module)
        let (temperature, tint) = WhiteBalanceConversion.temperatureAndTint(chromaticity: xy)
        return WhiteBalanceTemperatureAndTintValues(temperature: Float(temperature), tint: Float(tint))
    }

    /// The gains that make light of `tempAndTintValues` white (scaled so the smallest is 1; clamp before locking).
    public func deviceWhiteBalanceGains(for tempAndTintValues: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains {
        let xy = WhiteBalanceConversion.chromaticity(temperature: Double(tempAndTintValues.temperature), tint: Double(tempAndTintValues.tint))
        return WhiteBalanceGains(WhiteBalanceConversion.gains(chromaticity: xy, module: module))
    }

    // MARK: Internals

    /// What auto white balance finds: the simulated room's light is D65 white, so the camera's white response.
    var autoWhiteBalanceGains: SIMD3<Double> { WhiteBalanceConversion.gains(neutral: module.whiteResponse) }
}

/// A device's white balance: the mode and, when locked, the gains. Guarded by the device's `state` lock.
struct WhiteBalanceState {
    var mode: AVCaptureDevice.WhiteBalanceMode = .continuousAutoWhiteBalance
    /// Nil in continuous auto white balance.
    var lockedGains: SIMD3<Double>?
}

extension AVCaptureDevice.WhiteBalanceGains {
    init(_ gains: SIMD3<Double>) {
        self.init(redGain: Float(gains.x), greenGain: Float(gains.y), blueGain: Float(gains.z))
    }

    var simd: SIMD3<Double> { SIMD3(Double(redGain), Double(greenGain), Double(blueGain)) }
}
