import CameraSimulation
import CaptureCore

/// How a stream frame is exposed: the metered exposure with its duration capped by the frame
/// interval (the rest of the light made up with gain, as a phone's video AE does), on the session
/// clock at the frame's slot, with a seed of its own.
enum StreamExposure {
    static func make(metered: (duration: Double, iso: Double), interval: Double, readout: Size, module: CameraModule,
                     time: Double, index: Int, device: DeviceSnapshot) -> SensorExposure {
        let longest = interval * 0.95
        var duration = metered.duration, iso = metered.iso
        if duration > longest {
            iso = min(module.isoRange.upperBound, iso * duration / longest)
            duration = longest
        }
        var exposure = SensorExposure(size: readout, duration: duration, iso: iso, opticalStabilization: module.hasOpticalStabilization,
                                      startTime: time, bias: device.bias,
                                      seed: RandomSource.mix(RandomSource.mix(device.seed, 0x5747_EA00), UInt64(index)))
        exposure.focusDistance = device.focus?.distance
        exposure.swings = device.swings()
        return exposure
    }
}
