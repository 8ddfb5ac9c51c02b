import CameraSimulation
import CaptureCore
import Dispatch

/// Turns a request into exposures, deciding flash, exposure and the number of frames from the
/// scene as a phone does. Pure: the same request gives the same plan.
package enum CapturePlanner {
    /// Time from one frame's start to the next: the exposure plus a 4 ms readout gap.
    package static func frameInterval(_ duration: Double) -> Double { duration + 0.004 }

    package static func plan(_ request: CaptureRequest) -> CapturePlan {
        let device = request.device, source = device.source
        let readout = request.readoutSize
        // A depth capture exposes for the room: the stereo match and the portrait's subject need its light.
        let headroom = request.depth == nil
        let ambient = device.meter(size: readout, bias: device.bias, flash: false, keepsHighlightHeadroom: headroom)
        let flash = SceneDecisions.firesFlash(request.flash, hasFlash: device.module.hasFlash, ambient: ambient)
        let manual = device.exposure.isManual
        var (duration, iso, baseline) = (ambient.duration, ambient.iso, ambient.highlightHeadroom)
        var metering = ambient
        if case .manual(let d, let i) = device.exposure {
            (duration, iso, baseline) = (d, i, 0)
        } else if flash {
            metering = device.meter(size: readout, bias: device.bias, flash: true, keepsHighlightHeadroom: headroom)
            (duration, iso, baseline) = (metering.duration, metering.iso, metering.highlightHeadroom)
        }

        let ois = device.module.hasOpticalStabilization
        let seed = RandomSource.mix(device.seed, request.index)
        // A Live Photo's still is exposed at its moment on the stream's clock, so it shows what the movie shows then;
        // other photos while the stream runs at the frame slot of the call (zero shutter lag, not with manual
        // exposure, a bracket or the flash) or now, when the sensor takes the request (`LiveTiming`).
        var clock: Double
        if let live = request.livePhoto {
            clock = live.stillTime
        } else if let timing = request.liveTiming {
            let zsl = timing.zeroShutterLag && !manual && request.bracket == nil && !flash
            clock = zsl ? timing.slot(containing: timing.callTime)
                : Double(DispatchTime.now().uptimeNanoseconds &- request.clockOrigin) / 1e9
        } else {
            clock = Double(request.index) * 10
        }
        let focusDistance = device.focus?.distance
        func exposure(duration: Double, iso: Double, bias: Double, baseline: Double, stabilized: Bool, flash: Bool) -> SensorExposure {
            defer { clock += frameInterval(duration) }
            var frame = SensorExposure(size: readout, duration: duration, iso: iso, flash: flash, opticalStabilization: stabilized,
                                       startTime: clock, bias: bias, seed: RandomSource.mix(seed, UInt64(clock * 1000)))
            frame.focusDistance = focusDistance
            frame.baselineExposure = baseline
            return frame
        }

        if let bracket = request.bracket {
            let lens = bracket.lensStabilization && ois
            let status: LensStabilization = !ois ? .unsupported : (lens ? .active : .off)
            let current = device.currentExposure(size: readout)
            let shots = bracket.shots.enumerated().map { index, shot -> PlannedShot in
                let frame: SensorExposure
                switch shot {
                case .manualExposure(let d, let i):
                    frame = exposure(duration: d ?? current.duration, iso: i ?? current.iso, bias: 0, baseline: 0,
                                     stabilized: lens, flash: false)
                case .autoExposure(let b):
                    let shotBias = b ?? device.bias
                    let metered = device.meter(size: readout, bias: shotBias, flash: false, keepsHighlightHeadroom: headroom)
                    frame = exposure(duration: metered.duration, iso: metered.iso, bias: shotBias,
                                     baseline: metered.highlightHeadroom, stabilized: lens, flash: false)
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
            exposure(duration: duration, iso: iso, bias: manual ? 0 : device.bias, baseline: baseline, stabilized: ois, flash: flash)
        }
        var plan = CapturePlan(source: source,
                               shots: [PlannedShot(exposures: frames, bracketIndex: nil, lensStabilization: .unsupported)],
                               flash: flash, stabilization: stabilization, metering: metering)
        if request.depth != nil, case .stereo(let second, let module) = device.depthSource {
            let size = DepthDeveloper.stereoSecondaryReadout(depth: request.depth?.size ?? Size(width: 768, height: 576),
                                                             primary: device.module, secondary: module)
            plan.secondary = secondaryExposure(second, module: module, size: size, first: frames[0], bias: device.bias,
                                               flash: flash, manual: device.exposure, point: device.exposurePoint)
        }
        return plan
    }

    /// The second eye's frame: the same start, flash and focus as the photo's first frame, metered by
    /// its own camera (or the same manual exposure), at the stereo readout size. Without optical
    /// stabilisation: a shifting lens would move one eye against the other's calibration (the photo's
    /// telephoto eye has none), so both eyes see the phone's one shake alike.
    static func secondaryExposure(_ source: any FrameSource, module: CameraModule, size: Size, first: SensorExposure,
                                  bias: Double, flash: Bool, manual: ExposureControl, point: SIMD2<Double>) -> SecondaryExposure {
        var (duration, iso, baseline) = (first.duration, first.iso, first.baselineExposure)
        if case .automatic = manual {
            // The second eye of a depth capture, exposed for the room as the first.
            let metered = source.meter(size: size, bias: bias, flash: flash && module.hasFlash, keepsHighlightHeadroom: false, at: point)
            (duration, iso, baseline) = (metered.duration, metered.iso, metered.highlightHeadroom)
        }
        var frame = SensorExposure(size: size, duration: min(max(duration, module.exposureDurationRange.lowerBound),
                                                             module.exposureDurationRange.upperBound),
                                   iso: min(max(iso, module.isoRange.lowerBound), module.isoRange.upperBound),
                                   flash: flash, opticalStabilization: false,
                                   startTime: first.startTime, bias: bias, seed: RandomSource.mix(first.seed, 0x5EC0))
        frame.focusDistance = first.focusDistance
        frame.baselineExposure = baseline
        return SecondaryExposure(source: source, module: module, exposure: frame)
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
            depthSize: request.processed == nil ? nil : request.depth?.size,
            matteSize: request.processed == nil ? nil : request.depth?.matte.map { _ in MatteDelivery.size(forPhoto: size) },
            expectedPhotoCount: plan.shots.count * request.photosPerShot,
            processingTime: fastest...slowest,
            livePhotoMovieSize: request.livePhoto?.stream.configuration.size)
    }
}
