import CameraSimulation
import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// Turns accepted requests into exposures, pixels and delegate callbacks.
///
/// Three serial queues: the sensor queue plans and exposes one request at a time (the sensor is
/// one device), the processing queue runs the ISP and encoders (so request N+1 exposes while N is
/// processed), and the output's delegate queue carries every callback in the order it was posted.
/// Each request posts its callbacks from one logical flow, so its order is fixed:
/// willBeginCapture → willCapturePhoto → didCapturePhoto → didFinishProcessingPhoto × n → didFinishCapture.
final class PhotoCaptureEngine: @unchecked Sendable {
    private weak var output: AVCapturePhotoOutput?
    private let sensorQueue = DispatchQueue(label: "OpenCapture.PhotoCaptureEngine.sensor")
    private let processingQueue = DispatchQueue(label: "OpenCapture.PhotoCaptureEngine.processing")

    init(output: AVCapturePhotoOutput) {
        self.output = output
    }

    // MARK: Requests

    /// A refused request: no capture, only `didFinishCapture` with the error.
    func refuse(settings: AVCapturePhotoSettings, error: Error, delegate: AVCapturePhotoCaptureDelegate) {
        guard let output else { return }
        let resolved = AVCaptureResolvedPhotoSettings(uniqueID: settings.uniqueID, expectedPhotoCount: 0)
        let box = WeakDelegate(delegate)
        output.delegateQueue.async {
            box.value?.photoOutput(output, didFinishCaptureFor: resolved, error: error)
        }
    }

    /// An accepted request: plan, expose, process and deliver, asynchronously.
    func submit(_ request: PhotoRequest, delegate: AVCapturePhotoCaptureDelegate) {
        guard let output else { return }
        let box = WeakDelegate(delegate)
        sensorQueue.async { [self] in
            let plan = PhotoCaptureEngine.makePlan(request)
            let resolved = PhotoCaptureEngine.resolve(request, plan: plan)
            let post: @Sendable (@escaping @Sendable (AVCapturePhotoCaptureDelegate) -> Void) -> Void = { event in
                output.delegateQueue.async { if let delegate = box.value { event(delegate) } }
            }
            post { $0.photoOutput(output, willBeginCaptureFor: resolved) }

            let session = request.context.session
            post { $0.photoOutput(output, willCapturePhotoFor: resolved) }
            let exposed = expose(plan, clock: { session.clockSeconds })
            post { $0.photoOutput(output, didCapturePhotoFor: resolved) }

            let perShot = request.context.photosPerShot
            let count = plan.shots.count
            for (index, shot) in plan.shots.enumerated() {
                let (frames, startClock) = exposed[index]
                processingQueue.async {
                    let timestamp = CMTime(seconds: startClock, preferredTimescale: 1_000_000_000)
                    let results = PhotoCaptureEngine.process(request, plan: plan, shot: shot, firstPhotoCount: index * perShot + 1,
                                                             frames: frames, resolved: resolved, timestamp: timestamp)
                    for (photo, error) in results {
                        post { $0.photoOutput(output, didFinishProcessingPhoto: photo, error: error) }
                    }
                    if index == count - 1 {
                        let error = results.compactMap(\.1).first
                        post { $0.photoOutput(output, didFinishCaptureFor: resolved, error: error) }
                    }
                }
            }
        }
    }

    /// Exposes every frame of every shot back to back, paced in real time: a frame occupies the
    /// sensor for at least its exposure plus the readout gap. Returns each shot's frames and start time.
    private func expose(_ plan: CapturePlan, clock: () -> Double) -> [([RawImage], Double)] {
        plan.shots.map { shot in
            let shotStart = clock()
            let frames = shot.exposures.map { exposure in
                let frameStart = DispatchTime.now().uptimeNanoseconds
                let frame = plan.camera.capture(exposure)
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - frameStart) / 1e9
                let interval = PhotoCaptureEngine.frameInterval(exposure.duration)
                if interval > elapsed { Thread.sleep(forTimeInterval: interval - elapsed) }
                return frame
            }
            return (frames, shotStart)
        }
    }

    /// Time from one frame's start to the next: the exposure plus a 4 ms readout gap.
    static func frameInterval(_ duration: Double) -> Double { duration + 0.004 }

    // MARK: Planning and resolution

    static func meterAmbient(device: AVCaptureDevice, size: Size) -> ExposureMetering {
        device.camera.meter(size: size, bias: Double(device.exposureTargetBias))
    }

    /// Whether the flash fires for these settings in a scene metered as `ambient` (`.auto`: only in the dark).
    static func firesFlash(_ settings: AVCapturePhotoSettings, device: AVCaptureDevice, ambient: ExposureMetering) -> Bool {
        switch settings.flashMode {
        case .off: return false
        case .on: return device.hasFlash
        case .auto: return device.hasFlash && ambient.flashRecommended
        }
    }

    /// Whether automatic still-image stabilisation fuses several exposures: in low light, without
    /// flash or manual exposure, unless the request prioritises speed.
    static func usesStabilization(_ settings: AVCapturePhotoSettings, device: AVCaptureDevice, ambient: ExposureMetering,
                                  flash: Bool) -> Bool {
        let manual = device.exposureMode == .custom || device.exposureMode == .locked
        return settings.isAutoStillImageStabilizationEnabled && !flash && !manual && ambient.isLowLight
            && settings.photoQualityPrioritization != .speed
    }

    /// Decides flash, exposure and the number of frames from the scene, as a phone does.
    static func makePlan(_ request: PhotoRequest) -> CapturePlan {
        let settings = request.settings, device = request.context.device
        let camera = device.camera
        let readout = AVCaptureDevice.Format.readoutSize(for: request.context.photoSize, module: device.module)
        let bias = Double(device.exposureTargetBias)
        let ambient = camera.meter(size: readout, bias: bias)

        let flash = firesFlash(settings, device: device, ambient: ambient)
        let manual = device.exposureMode == .custom || device.exposureMode == .locked
        var duration = ambient.duration, iso = ambient.iso, metering = ambient
        if manual {
            (duration, iso) = device.currentExposure()
        } else if flash {
            metering = camera.meter(size: readout, bias: bias, flash: true)
            (duration, iso) = (metering.duration, metering.iso)
        }

        let ois = device.module.hasOpticalStabilization
        let seed = RandomSource.mix(device.simulationSeed, request.index)
        var clock = Double(request.index) * 10
        func exposure(duration: Double, iso: Double, bias: Double, stabilized: Bool) -> SensorExposure {
            defer { clock += frameInterval(duration) }
            return SensorExposure(size: readout, duration: duration, iso: iso, flash: flash, opticalStabilization: stabilized,
                                  startTime: clock, bias: bias, seed: RandomSource.mix(seed, UInt64(clock * 1000)))
        }

        if let bracket = settings as? AVCapturePhotoBracketSettings {
            let lens = bracket.isLensStabilizationEnabled && ois
            let status: AVCaptureDevice.LensStabilizationStatus = !ois ? .unsupported : (lens ? .active : .off)
            let shots = bracket.bracketedSettings.enumerated().map { index, entry -> PlannedShot in
                let frame: SensorExposure
                if let manual = entry as? AVCaptureManualExposureBracketedStillImageSettings {
                    let current = device.currentExposure()
                    let seconds = manual.exposureDuration == AVCaptureExposureDurationCurrent ? current.duration : manual.exposureDuration.seconds
                    let isoValue = manual.iso == AVCaptureISOCurrent ? current.iso : Double(manual.iso)
                    frame = exposure(duration: seconds, iso: isoValue, bias: 0, stabilized: lens)
                } else {
                    let auto = entry as? AVCaptureAutoExposureBracketedStillImageSettings
                    let shotBias = auto.map { $0.exposureTargetBias == AVCaptureExposureTargetBiasCurrent ? bias : Double($0.exposureTargetBias) } ?? bias
                    let metered = camera.meter(size: readout, bias: shotBias)
                    frame = exposure(duration: metered.duration, iso: metered.iso, bias: shotBias, stabilized: lens)
                }
                return PlannedShot(exposures: [frame], bracketSettings: entry, sequenceCount: index + 1, lensStabilization: status)
            }
            return CapturePlan(camera: camera, readoutSize: readout, shots: shots, flash: false, stabilization: false,
                               metering: ambient)
        }

        let stabilization = usesStabilization(settings, device: device, ambient: ambient, flash: flash)
        let frameCount = stabilization ? (settings.photoQualityPrioritization == .quality ? 6 : 4) : 1
        let frames = (0..<frameCount).map { _ in exposure(duration: duration, iso: iso, bias: manual ? 0 : bias, stabilized: ois) }
        return CapturePlan(camera: camera, readoutSize: readout,
                           shots: [PlannedShot(exposures: frames, bracketSettings: nil, sequenceCount: 0, lensStabilization: .unsupported)],
                           flash: flash, stabilization: stabilization, metering: metering)
    }

    static func resolve(_ request: PhotoRequest, plan: CapturePlan) -> AVCaptureResolvedPhotoSettings {
        let size = request.context.photoSize
        let pixels = Double(size.pixelCount * plan.exposures.count)
        let fastest = pixels / 150e6, slowest = pixels / 40e6 + 0.05
        let none = CMVideoDimensions(width: 0, height: 0)
        let raw = request.context.raw
        return AVCaptureResolvedPhotoSettings(
            uniqueID: request.settings.uniqueID,
            photoDimensions: request.context.output == nil ? none : dimensions(size),
            rawPhotoDimensions: raw == nil ? none : dimensions(size),
            previewDimensions: request.context.preview.map { dimensions($0.size) } ?? CMVideoDimensions(width: 0, height: 0),
            embeddedThumbnailDimensions: request.context.thumbnail.map { dimensions($0.size) } ?? none,
            rawEmbeddedThumbnailDimensions: raw?.thumbnail.map(dimensions) ?? none,
            isFlashEnabled: plan.flash,
            isRedEyeReductionEnabled: plan.flash && request.settings.isAutoRedEyeReductionEnabled,
            isStillImageStabilizationEnabled: plan.stabilization,
            expectedPhotoCount: plan.shots.count * request.context.photosPerShot,
            photoProcessingTimeRange: CMTimeRange(start: CMTime(seconds: fastest, preferredTimescale: 1_000_000),
                                                  duration: CMTime(seconds: slowest - fastest, preferredTimescale: 1_000_000)))
    }

    static func dimensions(_ size: Size) -> CMVideoDimensions {
        CMVideoDimensions(width: Int32(size.width), height: Int32(size.height))
    }

    // MARK: Processing

    /// Merges, develops and encodes one shot's frames into its delivered photos: the RAW photo
    /// first (when asked for), then the processed one. Never returns a nil photo: on failure the
    /// photo carries no data and the error is returned beside it.
    static func process(_ request: PhotoRequest, plan: CapturePlan, shot: PlannedShot, firstPhotoCount: Int, frames: [RawImage],
                        resolved: AVCaptureResolvedPhotoSettings, timestamp: CMTime) -> [(AVCapturePhoto, Error?)] {
        let context = request.context, settings = request.settings
        let photoSize = context.photoSize
        var raw = frames.count > 1 ? RawFrameMerger.merge(frames) : frames[0]
        raw = raw.croppingRows(to: photoSize.height)

        var isp = ISPSettings()
        switch settings.photoQualityPrioritization {
        case .speed: isp.noiseReduction = 0.6; isp.demosaic = context.raw == nil ? .bilinear : .malvarHeCutler
        case .balanced: isp.noiseReduction = 1
        case .quality: isp.noiseReduction = 1.2
        }
        isp.colorSpace = context.colorSpace
        let rgb = ImageSignalProcessor(settings: isp).process(raw)
        let description = PhotoDescription(request: request, raw: raw, plan: plan, size: photoSize, captureDate: Date())

        let camera = plan.camera, firstExposure = shot.exposures[0], height = photoSize.height
        let groundTruth: @Sendable () -> SimulationGroundTruth? = {
            guard let truth = camera.groundTruth(firstExposure)?.croppingRows(to: height),
                  let depth = camera.depthMap(size: firstExposure.size)?.croppingRows(to: height) else { return nil }
            return SimulationGroundTruth(width: truth.width, height: truth.height,
                                         linearSRGB: truth.storage, depth: depth.storage)
        }
        func photo(count: Int, isRaw: Bool, fileData: Data?, fileDataProvider: (@Sendable () -> Data?)?,
                   pixelBuffer: CVPixelBuffer?, preview: CVPixelBuffer?, failed: Bool) -> AVCapturePhoto {
            AVCapturePhoto(timestamp: failed ? .invalid : timestamp, resolvedSettings: resolved, photoCount: count,
                           isRawPhoto: isRaw, fileData: fileData, fileDataProvider: fileDataProvider, pixelBuffer: pixelBuffer,
                           previewPixelBuffer: preview,
                           embeddedThumbnailPhotoFormat: isRaw ? settings.rawEmbeddedThumbnailPhotoFormat
                               : (context.thumbnail == nil ? nil : settings.embeddedThumbnailPhotoFormat),
                           metadata: description.imageIOMetadata, sourceDeviceType: context.device.deviceType,
                           bracketSettings: shot.bracketSettings, sequenceCount: shot.sequenceCount,
                           lensStabilizationStatus: shot.lensStabilization, groundTruth: groundTruth)
        }
        let preview = context.preview.flatMap { makePixelBuffer(Resampler.downscale(rgb, to: $0.size), pixelFormat: $0.pixelFormat) }
        var results: [(AVCapturePhoto, Error?)] = []
        var count = firstPhotoCount

        if let rawRequest = context.raw {
            let bayer = PixelBuffer.uint16(from: raw.bayer, pixelFormat: FourCC(rawValue: rawRequest.pixelFormat))
            bayer?.attachments["BlackLevel"] = raw.blackLevel.map { String(Int($0)) }.joined(separator: " ")
            bayer?.attachments["WhiteLevel"] = String(raw.whiteLevel)
            let previewSize = rawRequest.thumbnail ?? photoSize.fitted(within: Size(width: 256, height: 256))
            let dngPreview = Resampler.downscale(rgb, to: previewSize)
            let metadata = DNGMetadata.derived(from: raw, make: description.exif.make ?? "OpenCapture",
                                               model: description.exif.model ?? "Simulated Camera", exif: description.exif)
            let frozenRaw = raw
            let dng: @Sendable () -> Data? = { try? DNGWriter.write(frozenRaw, metadata: metadata, preview: dngPreview) }
            results.append((photo(count: count, isRaw: true, fileData: nil, fileDataProvider: dng, pixelBuffer: bayer,
                                  preview: preview, failed: false), nil))
            count += 1
        }

        guard let output = context.output else { return results }
        var fileData: Data?
        var fileDataProvider: (@Sendable () -> Data?)?
        var pixelBuffer: CVPixelBuffer?
        var failure: Error?
        switch output {
        case .jpeg(let quality):
            do {
                let thumbnail = try context.thumbnail.map {
                    try JPEGEncoder.encode(Resampler.downscale(rgb, to: $0.size), quality: 80)
                }
                fileData = try JPEGEncoder.encode(rgb, quality: max(1, min(100, Int((quality * 100).rounded()))),
                                                  exif: description.exif, thumbnailJPEG: thumbnail,
                                                  iccProfile: ICCProfile.data(for: context.colorSpace))
            } catch {
                failure = error
            }
        case .hevc(let quality):
            var options = HEIFEncodingOptions()
            options.quality = quality
            options.colorSpace = context.colorSpace
            options.exif = description.exif
            options.orientation = context.orientation
            options.thumbnailMaxDimension = context.thumbnail.map { max($0.size.width, $0.size.height) } ?? 320
            do { fileData = try HEIFEncoder.encode(rgb, options: options) } catch { failure = error }
        case .uncompressed(let pixelFormat):
            pixelBuffer = makePixelBuffer(rgb, pixelFormat: pixelFormat)
            let orientation = context.orientation
            fileDataProvider = { try? TIFFCodec.encode(rgb, orientation: orientation) }
        }
        results.append((photo(count: count, isRaw: false, fileData: fileData, fileDataProvider: fileDataProvider,
                              pixelBuffer: pixelBuffer, preview: preview, failed: failure != nil), failure))
        return results
    }

    static func makePixelBuffer(_ rgb: Raster<UInt8>, pixelFormat: OSType) -> CVPixelBuffer? {
        switch pixelFormat {
        case kCVPixelFormatType_32BGRA: return PixelBuffer.bgra(from: rgb)
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: return PixelBuffer.yCbCr420(from: rgb, fullRange: true)
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: return PixelBuffer.yCbCr420(from: rgb, fullRange: false)
        default: return nil
        }
    }

    // MARK: Dictionary values

    /// A number from a settings dictionary (Double, Float, Int, NSNumber…).
    static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as Int: return Double(v)
        case let v as Int32: return Double(v)
        case let v as UInt32: return Double(v)
        case let v as CGFloat: return Double(v)
        case let v as NSNumber: return v.doubleValue
        default: return nil
        }
    }

    /// A pixel-format code from a settings dictionary.
    static func osType(_ value: Any) -> OSType? {
        switch value {
        case let v as UInt32: return v
        case let v as Int where v >= 0 && v <= Int(UInt32.max): return UInt32(v)
        case let v as NSNumber: return v.uint32Value
        default: return nil
        }
    }
}

extension Raster {
    /// The centre `height` rows (offset kept even so a Bayer pattern keeps its phase).
    func croppingRows(to height: Int) -> Raster {
        guard height < self.height, height > 0 else { return self }
        let top = ((self.height - height) / 2) & ~1
        let start = top * rowStride
        return Raster(width: width, height: height, channels: channels,
                      storage: Array(storage[start..<(start + height * rowStride)]))
    }
}

extension RawImage {
    func croppingRows(to height: Int) -> RawImage {
        var copy = self
        copy.bayer = bayer.croppingRows(to: height)
        return copy
    }
}
