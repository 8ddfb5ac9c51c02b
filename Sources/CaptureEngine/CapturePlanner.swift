import CameraSimulation
import CaptureCore

/// Turns a request into exposures, deciding flash, exposure and the number of frames from the
/// scene as a phone does. Pure: the same request gives the same plan.
package enum CapturePlanner {
    /// Time from one frame's start to the next: the exposure plus a 4 ms readout gap.
    package static func frameInterval(_ duration: Double) -> Double { duration + 0.004 }

    package static func plan(_ request: CaptureRequest) -> CapturePlan {
        let device = request.device, source = device.source
        let readout = request.readoutSize
        let ambient = source.meter(size: readout, bias: device.bias)
        let flash = SceneDecisions.firesFlash(request.flash, hasFlash: device.module.hasFlash, ambient: ambient)
        let manual = device.exposure.isManual
        var (duration, iso) = (ambient.duration, ambient.iso)
        var metering = ambient
        if case .manual(let d, let i) = device.exposure {
            (duration, iso) = (d, i)
        } else if flash {
            metering = source.meter(size: readout, bias: device.bias, flash: true)
            (duration, iso) = (metering.duration, metering.iso)
        }

        let ois = device.module.hasOpticalStabilization
        let seed = RandomSource.mix(device.seed, request.index)
        var clock = Double(request.index) * 10
        func exposure(duration: Double, iso: Double, bias: Double, stabilized: Bool, flash: Bool) -> SensorExposure {
            defer { clock += frameInterval(duration) }
            return SensorExposure(size: readout, duration: duration, iso: iso, flash: flash, opticalStabilization: stabilized,
                                  startTime: clock, bias: bias, seed: RandomSource.mix(seed, UInt64(clock * 1000)))
        }

        if let bracket = request.bracket {
            let lens = bracket.lensStabilization && ois
            let status: LensStabilization = !ois ? .unsupported : (lens ? .active : .off)
            let current = device.currentExposure(size: readout)
            let shots = bracket.shots.enumerated().map { index, shot -> PlannedShot in
                let frame: SensorExposure
                switch shot {
                case .manualExposure(let d, let i):
                    frame = exposure(duration: d ?? current.duration, iso: i ?? current.iso, bias: 0, stabilized: lens, flash: false)
                case .autoExposure(let b):
                    let shotBias = b ?? device.bias
                    let metered = source.meter(size: readout, bias: shotBias)
                    frame = exposure(duration: metered.duration, iso: metered.iso, bias: shotBias, stabilized: lens, flash: false)
                }
                return PlannedShot(exposures: [frame], bracketIndex: index, lensStabilization: status)
            }
            return CapturePlan(source: source, shots: shots, flash: false, stabilization: false,
                               metering: ambient)
        }

        let stabilization = SceneDecisions.usesStabilization(allowed: request.allowsStillImageStabilization, quality: request.quality,
                                                             manualExposure: manual, ambient: ambient, flash: flash)
        let count = stabilization ? SceneDecisions.stabilizationFrameCount(request.quality) : 1
        let frames = (0..<count).map { _ in
            exposure(duration: duration, iso: iso, bias: manual ? 0 : device.bias, stabilized: ois, flash: flash)
        }
        return CapturePlan(source: source,
                           shots: [PlannedShot(exposures: frames, bracketIndex: nil, lensStabilization: .unsupported)],
                           flash: flash, stabilization: stabilization, metering: metering)
    }

    /// What the request resolves to, as reported before capture starts.
    package static func resolve(_ request: CaptureRequest, plan: CapturePlan) -> ResolvedCapture {
        let size = request.photoSize
        let pixels = Double(size.pixelCount * plan.exposures.count)
        let fastest = pixels / 150e6, slowest = pixels / 40e6 + 0.05
        return ResolvedCapture(
            id: request.id,
            photoSize: request.processed == nil ? nil : size,
            rawPhotoSize: request.raw == nil ? nil : size,
            previewSize: request.preview?.size,
            thumbnailSize: request.thumbnailSize,
            rawThumbnailSize: request.raw?.thumbnail,
            flash: plan.flash,
            redEyeReduction: plan.flash && request.redEyeReduction,
            stillImageStabilization: plan.stabilization,
            expectedPhotoCount: plan.shots.count * request.photosPerShot,
            processingTime: fastest...slowest)
    }
}
