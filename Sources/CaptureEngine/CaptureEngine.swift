import CameraSimulation
import CaptureCore
import Dispatch
import Foundation
import ImagePipeline
import Depth
import MediaFormats

/// Runs accepted requests: plans, exposes, develops and encodes them, and reports each step as a
/// `CaptureEvent`. Knows nothing of Apple's types; the photo output adapts its events.
///
/// Two serial queues: the sensor queue plans and exposes one request at a time (the sensor is one
/// device) and the processing queue develops and encodes (so request N+1 exposes while N is
/// processed). Requests reach the sensor in the order `submit` is called; each request's events
/// are reported in order from one logical flow.
package final class CaptureEngine: Sendable {
    private let sensorQueue: DispatchQueue
    private let processingQueue: DispatchQueue

    package init(label: String = "OpenCapture.CaptureEngine") {
        sensorQueue = DispatchQueue(label: label + ".sensor")
        processingQueue = DispatchQueue(label: label + ".processing")
    }

    /// Queues a request. `events` is called on the engine's queues, in order, ending with `.finished`.
    package func submit(_ request: CaptureRequest, events: @escaping @Sendable (CaptureEvent) -> Void) {
        // A Live Photo's movie starts now, from the stream's last 1.5 s, and records on while the still is made.
        let recording = request.livePhoto.map(LivePhotoRecording.init)
        let photosDone = DispatchGroup()
        let photoError = Locked<(any Error)?>(nil)
        if let recording, let live = request.livePhoto {
            photosDone.enter()
            DispatchQueue.global(qos: .userInitiated).async {
                recording.waitUntilRecorded()
                photosDone.wait()
                events(.livePhotoRecorded(url: live.url))
                events(.livePhotoMovie(recording.finish()))
                events(.finished(error: photoError.wrappedValue))
            }
        }
        sensorQueue.async { [processingQueue] in
            let plan = CapturePlanner.plan(request)
            events(.resolved(CapturePlanner.resolve(request, plan: plan)))
            events(.exposureStarted)
            let exposed = CaptureEngine.expose(plan, request: request)
            // The stereo pair's second eye was exposed at the same moment as the first frame.
            let secondary = plan.secondary.map { $0.source.capture($0.exposure) }
            events(.exposureFinished)

            let perShot = request.photosPerShot
            for (index, shot) in plan.shots.enumerated() {
                let (frames, start) = exposed[index]
                processingQueue.async {
                    let results = CaptureEngine.process(request, plan: plan, shot: shot, frames: frames, start: start,
                                                        firstPhotoCount: index * perShot + 1, secondary: secondary)
                    for (photo, error) in results { events(.photo(photo, error: error)) }
                    if index == plan.shots.count - 1 {
                        let error = results.lazy.compactMap(\.1).first
                        if recording == nil {
                            events(.finished(error: error))
                        } else {
                            photoError.wrappedValue = error
                            photosDone.leave()
                        }
                    }
                }
            }
        }
    }

    /// Exposes every frame of every shot back to back, paced in real time: a frame is ready when its exposure and
    /// readout end (`frameEnd`). Returns each shot's frames and start time.
    private static func expose(_ plan: CapturePlan, request: CaptureRequest) -> [([RawImage], Double)] {
        plan.shots.map { shot in
            // On the live clock a photo's timestamp is its exposure's start (with zero shutter lag, before the call).
            let live = request.liveTiming != nil || request.livePhoto != nil
            let shotStart = live ? shot.exposures.first?.startTime ?? sessionSeconds(since: request.clockOrigin)
                : sessionSeconds(since: request.clockOrigin)
            let frames = shot.exposures.map { exposure in
                let taken = DispatchTime.now().uptimeNanoseconds
                let frame = plan.source.capture(exposure)
                let end = frameEnd(exposure, live: live, clockOrigin: request.clockOrigin, takenAt: taken)
                let now = DispatchTime.now().uptimeNanoseconds
                if end > now { Thread.sleep(forTimeInterval: Double(end - now) / 1e9) }
                return frame
            }
            return (frames, shotStart)
        }
    }

    /// When a frame's exposure and readout end, in uptime nanoseconds. On the session's live clock, its start there
    /// plus its frame interval: with zero shutter lag the frame is the one already in progress at the call, so only the
    /// rest of it is waited for (an iPhone takes it from its ring buffer), and a bracket's frames follow their planned
    /// slots. Off the live clock (the synthetic per-request clock) it starts when the sensor takes it, `takenAt`.
    package static func frameEnd(_ exposure: SensorExposure, live: Bool, clockOrigin: UInt64, takenAt: UInt64) -> UInt64 {
        let interval = CapturePlanner.frameInterval(exposure.duration)
        guard live, exposure.startTime.isFinite, exposure.startTime >= 0 else {
            return takenAt &+ UInt64(max(interval, 0) * 1e9)
        }
        return clockOrigin &+ UInt64((exposure.startTime + max(interval, 0)) * 1e9)
    }

    private static func sessionSeconds(since origin: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1e9
    }

    /// Develops and encodes one shot into its photos: the RAW photo first (when asked for), then
    /// the processed one. A failed encode gives a photo without data and the error beside it.
    private static func process(_ request: CaptureRequest, plan: CapturePlan, shot: PlannedShot, frames: [RawImage],
                                start: Double, firstPhotoCount: Int, secondary: RawImage?) -> [(CapturedPhoto, (any Error)?)] {
        let (raw, rgb) = ShotDeveloper.develop(frames, request: request)
        let exif = CaptureExif.make(request: request, plan: plan, record: raw.exposure)
        let preview = request.preview.flatMap {
            PhotoEncoder.pixelBuffer(Resampler.downscale(rgb, to: $0.size), format: $0.pixelFormat, colorSpace: request.colorSpace)
        }
        let source = plan.source, first = shot.exposures[0], height = request.photoSize.height
        // What the sensor saw; for a processed photo, with the ISP's lens corrections applied the same way.
        let isp = ShotDeveloper.ispSettings(request), lens = raw.lensCorrection
        func groundTruth(processed: Bool) -> @Sendable () -> GroundTruthFrame? {
            {
                guard var truth = source.groundTruth(first)?.croppingRows(to: height),
                      var depth = source.depthMap(size: first.size)?.croppingRows(to: height) else { return nil }
                if processed, let lens {
                    truth = lens.correctedLikeISP(truth, settings: isp, cameraToSRGB: raw.cameraToSRGB)
                    if isp.correctsDistortion { depth = lens.corrected(depth) }
                }
                return GroundTruthFrame(width: truth.width, height: truth.height, linearSRGB: truth.storage, depth: depth.storage,
                                        baselineExposure: raw.baselineExposure)
            }
        }
        func photo(_ count: Int, raw isRaw: Bool, failed: Bool = false) -> CapturedPhoto {
            CapturedPhoto(photoCount: count, isRaw: isRaw, timestamp: failed ? nil : start, exif: exif,
                          bracketIndex: shot.bracketIndex, lensStabilization: shot.lensStabilization, preview: preview,
                          groundTruth: groundTruth(processed: !isRaw))
        }

        var results: [(CapturedPhoto, (any Error)?)] = []
        var count = firstPhotoCount
        if let delivery = request.raw {
            var rawPhoto = photo(count, raw: true)
            let (buffer, dng) = PhotoEncoder.raw(raw, rgb: rgb, colorSpace: request.colorSpace, delivery: delivery, exif: exif, photoSize: request.photoSize)
            rawPhoto.pixelBuffer = buffer
            rawPhoto.fileDataProvider = dng
            results.append((rawPhoto, nil))
            count += 1
        }
        if let delivery = request.processed {
            do {
                let depth = try request.depth.map { try measureDepth($0, request: request, plan: plan, frames: frames,
                                                                      secondary: secondary, rgb: rgb) }
                let encoded = try PhotoEncoder.encode(rgb, as: delivery, exif: exif, request: request,
                                                      depth: depth.flatMap { $0.embedDepth ? $0.map : nil },
                                                      matte: depth.flatMap { $0.embedMatte ? $0.matte : nil })
                var processed = photo(count, raw: false)
                processed.depth = depth?.map
                processed.depthPixelFormat = request.depth?.pixelFormat
                processed.matte = depth?.matte
                processed.calibration = depth?.calibration
                processed.fileData = encoded.fileData
                processed.fileDataProvider = encoded.fileDataProvider
                processed.pixelBuffer = encoded.pixelBuffer
                results.append((processed, nil))
            } catch {
                results.append((photo(count, raw: false, failed: true), error))
            }
        }
        return results
    }
}

extension CaptureEngine {
    /// What a depth request measured for one processed photo.
    struct MeasuredDepth {
        var map: DepthMap
        var matte: Raster<Float>?
        var calibration: CameraCalibration?
        var embedDepth: Bool
        var embedMatte: Bool
    }

    /// Measures depth with the device's depth hardware, derives the matte, and attaches the photo
    /// camera's calibration (its reference size is the photo's, as on iPhones).
    static func measureDepth(_ delivery: DepthDelivery, request: CaptureRequest, plan: CapturePlan, frames: [RawImage],
                             secondary: RawImage?, rgb: Raster<UInt8>) throws -> MeasuredDepth {
        let module = request.device.module
        // A distortion-corrected photo is an ideal pinhole view: its depth is measured into that view, and its
        // calibration has no lens tables; otherwise both keep the lens's distortion, as Apple's do.
        let corrected = request.device.correctsDistortion
        let lensCalibration = module.calibration(size: request.photoSize)
        let calibration = corrected ? lensCalibration.withoutLensDistortion : lensCalibration
        let measurement: DepthDeveloper.Measurement
        switch request.device.depthSource {
        case .stereo(_, let secondModule):
            guard let secondary else { throw DepthError.noData("the stereo pair's second frame is missing") }
            measurement = try DepthDeveloper.stereo(primary: frames[0], primaryModule: module, secondary: secondary,
                                            secondaryModule: secondModule, delivery: delivery, recordedGeometry: !corrected)
        case .structuredLight(let rig):
            measurement = try DepthDeveloper.structuredLight(rig: rig, seed: RandomSource.mix(plan.exposures[0].seed, 0x1D07),
                                                             delivery: delivery, recordedGeometry: !corrected) {
                DepthDeveloper.guideLuma(rgb, size: $0)
            }
        case nil:
            throw DepthError.noData("\(request.device.name) does not measure depth")
        }
        var map = measurement.delivered
        map.calibration = calibration
        let matte = try delivery.matte.flatMap { _ in
            try DepthDeveloper.matte(photo: rgb, depth: measurement.measured, subject: request.device.focus?.pointOfInterest)
        }
        return MeasuredDepth(map: map, matte: matte, calibration: delivery.calibration ? calibration : nil,
                             embedDepth: delivery.embed, embedMatte: delivery.matte?.embed ?? false)
    }
}

extension CapturedPhoto {
    init(photoCount: Int, isRaw: Bool, timestamp: Double?, exif: ExifMetadata, bracketIndex: Int?,
         lensStabilization: LensStabilization, preview: PixelBuffer?, groundTruth: @escaping @Sendable () -> GroundTruthFrame?) {
        self.init(photoCount: photoCount, isRaw: isRaw, timestamp: timestamp, fileData: nil, fileDataProvider: nil,
                  pixelBuffer: nil, preview: preview, exif: exif, bracketIndex: bracketIndex,
                  lensStabilization: lensStabilization, groundTruth: groundTruth)
    }
}
