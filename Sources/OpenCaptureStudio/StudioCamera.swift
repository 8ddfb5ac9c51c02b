import Foundation
import OpenCapture
import OpenCapturePhotos

/// The studio's camera: one `AVCaptureSession` with a photo output, rebuilt when the device or the
/// lighting changes, driven through Apple's API exactly as an app drives it; each shutter press is
/// published as it happens and ends in the photo library.
actor StudioCamera {
    struct Shot: Sendable {
        var mode: StudioMode
        var device: String
        var lighting: SimulatedLighting
        var flash: AVCaptureDevice.FlashMode
        var bias: Float
    }

    /// The cameras the page offers; `depth`: whether it measures depth (at a 4:3 preset).
    static let devices: [(id: String, type: AVCaptureDevice.DeviceType, position: AVCaptureDevice.Position, label: String, depth: Bool)] = [
        ("wide", .builtInWideAngleCamera, .back, "Back wide", false),
        ("tele", .builtInTelephotoCamera, .back, "Back telephoto", false),
        ("dual", .builtInDualCamera, .back, "Back dual (depth)", true),
        ("front", .builtInTrueDepthCamera, .front, "Front TrueDepth", true),
    ]

    private let hub: StudioEventHub
    private let library: PHPhotoLibrary
    private let log: StudioCaptureLog
    private let preset: AVCaptureSession.Preset
    private var session: AVCaptureSession?
    private var output: AVCapturePhotoOutput?
    private var camera: AVCaptureDevice?
    private var configured: (device: String, lighting: SimulatedLighting)?
    /// The live viewfinder's output; in the session while someone watches it.
    nonisolated let viewfinder = StudioViewfinder()

    init(hub: StudioEventHub, library: PHPhotoLibrary, log: StudioCaptureLog, preset: AVCaptureSession.Preset) {
        self.hub = hub
        self.library = library
        self.log = log
        self.preset = preset
    }

    /// Takes one shot and saves it; throws `StudioError` for a request that cannot be met.
    func take(_ shot: Shot, id: String) async throws -> StudioCaptureRecord {
        if let reason = shot.mode.unavailableReason(preset: preset) { throw StudioError(status: 409, reason) }
        let start = DispatchTime.now()
        hub.publish(["type": "started", "capture": id, "mode": shot.mode.rawValue, "device": shot.device])
        let (output, device) = try configure(shot)
        try prepareLivePhoto(shot.mode == .livePhoto, output: output)
        var steps: [StudioCaptureEvent] = []
        func ms() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6 }
        func step<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            let begin = ms()
            let value = try body()
            let event = StudioCaptureEvent(name: name, start: begin, end: ms(), detail: nil)
            steps.append(event)
            hub.publish(["type": "step", "capture": id, "name": name, "start": event.start, "end": event.end])
            return value
        }
        if device.exposureTargetBias != shot.bias {
            try device.lockForConfiguration()
            device.setExposureTargetBias(min(max(shot.bias, device.minExposureTargetBias), device.maxExposureTargetBias))
            device.unlockForConfiguration()
        }
        let settings = try makeSettings(shot, output: output, device: device)
        if shot.mode == .livePhoto {
            settings.livePhotoMovieFileURL = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-studio-\(UUID().uuidString).mov")
        }
        defer { if let url = settings.livePhotoMovieFileURL { try? FileManager.default.removeItem(at: url) } }
        let delegate = StudioPhotoDelegate(captureID: id, start: start, hub: hub)
        do {
            try output.validate(settings)
        } catch {
            throw StudioError(status: 400, "\(error)")
        }
        output.capturePhoto(with: settings, delegate: delegate)
        let (photos, events) = try await delegate.wait()
        let processed = photos.filter { !$0.isRaw }.map(\.data), raws = photos.filter(\.isRaw).map(\.data)
        guard !processed.isEmpty else { throw StudioError(status: 500, "the capture delivered no photo") }

        var roles: [String: String] = [:]
        var fusion: PhotoFusionResult?
        if shot.mode == .bracket {
            fusion = try step("fusion") { try PhotoFusion().fuse(fileData: processed) }
        }
        try step("save to library") {
            var requests: [(String, PHAssetCreationRequest)] = []
            try library.performChangesAndWait {
                func add(_ role: String, _ data: Data, alternate: Data? = nil) {
                    let request = PHAssetCreationRequest.forAsset()
                    request.addResource(with: .photo, data: data, options: nil)
                    if let alternate { request.addResource(with: .alternatePhoto, data: alternate, options: nil) }
                    requests.append((role, request))
                }
                switch shot.mode {
                case .bracket:
                    for (i, frame) in processed.enumerated() { add("frame-\(i + 1)", frame) }
                    if let fusion { add("fused", fusion.fusedJPEG) }
                    if let toneMapped = fusion?.toneMappedJPEG { add("toneMapped", toneMapped) }
                case .raw:
                    add("photo", processed[0], alternate: raws.first)
                case .livePhoto:
                    add("photo", processed[0])
                    if let movie = delegate.livePhotoMovie, let request = requests.last?.1 {
                        request.addResource(with: .pairedVideo, fileURL: movie, options: nil)
                    }
                default:
                    add("photo", processed[0])
                }
            }
            for (role, request) in requests { roles[role] = request.placeholderForCreatedAsset?.localIdentifier }
        }
        let record = StudioCaptureRecord(id: id, mode: shot.mode.rawValue, device: shot.device, date: Date(), assets: roles,
                                         events: events + steps)
        try log.append(record)
        hub.publish(["type": "done", "capture": id, "assets": roles, "ms": ms()])
        return record
    }

    /// Puts the viewfinder's output in the session (making one for the back wide camera if there is none yet) when
    /// someone watches, and takes it out when nobody does, so the camera streams only while it is seen.
    func updateViewfinder(defaultLighting: SimulatedLighting) throws {
        let watched = viewfinder.subscriberCount > 0
        if watched, session == nil {
            _ = try configure(Shot(mode: .photo, device: "wide", lighting: defaultLighting, flash: .off, bias: 0))
        }
        guard let session else { return }
        let inSession = session.outputs.contains { $0 === viewfinder.output }
        if watched && !inSession && session.canAddOutput(viewfinder.output) { session.addOutput(viewfinder.output) }
        if !watched && inSession { session.removeOutput(viewfinder.output) }
    }

    /// Whether the viewfinder's output is in the running session (the camera streams for it).
    var viewfinderIsInSession: Bool { session?.outputs.contains { $0 === viewfinder.output } ?? false }

    /// Gets the session ready for the next shot's device, lighting and mode before the shutter is pressed.
    func prepare(for shot: Shot) throws {
        let (output, _) = try configure(shot)
        try prepareLivePhoto(shot.mode == .livePhoto, output: output)
    }

    /// Live Photo capture on for a Live Photo shot (it runs the camera's frame stream, so it is off otherwise); the
    /// first Live Photo after switching keeps whatever the stream has had time to record before the shutter.
    private func prepareLivePhoto(_ wanted: Bool, output: AVCapturePhotoOutput) throws {
        if wanted && !output.isLivePhotoCaptureSupported {
            throw StudioError(status: 400, "Live Photos need the photo preset (opencapture studio --preset photo)")
        }
        if output.isLivePhotoCaptureEnabled != wanted { output.isLivePhotoCaptureEnabled = wanted }
    }

    /// The session for this shot's device and lighting (started, depth enabled where the device has it).
    private func configure(_ shot: Shot) throws -> (AVCapturePhotoOutput, AVCaptureDevice) {
        if let output, let camera, let configured, configured.device == shot.device, configured.lighting == shot.lighting {
            return (output, camera)
        }
        // What can be refused is refused before the running session is touched.
        guard let choice = StudioCamera.devices.first(where: { $0.id == shot.device }) else {
            throw StudioError(status: 400, "unknown device '\(shot.device)'")
        }
        guard let device = AVCaptureDevice.default(choice.type, for: .video, position: choice.position) else {
            throw StudioError(status: 400, "no \(choice.label) camera")
        }
        // From here the old session is gone: a failure below leaves none, and the next request builds one again
        // (never reusing a stopped session, whose output has no active connection).
        if let old = session {
            old.stopRunning()
            if old.outputs.contains(where: { $0 === viewfinder.output }) { old.removeOutput(viewfinder.output) }
        }
        (session, output, camera, configured) = (nil, nil, nil, nil)
        device.simulatedLighting = shot.lighting
        let session = AVCaptureSession(), output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = preset
        let input: AVCaptureDeviceInput
        do { input = try AVCaptureDeviceInput(device: device) } catch { throw StudioError(status: 500, "\(error)") }
        guard session.canAddInput(input), session.canAddOutput(output) else { throw StudioError(status: 500, "cannot configure the session") }
        session.addInput(input)
        // The microphone, so Live Photo movies have sound (as `opencapture live`'s do).
        if let microphone = AVCaptureDevice.default(for: .audio), let audio = try? AVCaptureDeviceInput(device: microphone),
           session.canAddInput(audio) {
            session.addInput(audio)
        }
        session.addOutput(output)
        if viewfinder.subscriberCount > 0, session.canAddOutput(viewfinder.output) { session.addOutput(viewfinder.output) }
        output.maxPhotoQualityPrioritization = .quality
        session.commitConfiguration()
        // Depth, where the camera measures it: a disparity format of the active format, as Apple's sample chooses.
        if let format = device.activeFormat.supportedDepthDataFormats.first(where: {
            CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCVPixelFormatType_DisparityFloat16
        }) ?? device.activeFormat.supportedDepthDataFormats.first {
            do {
                try device.lockForConfiguration()
                device.activeDepthDataFormat = format
                device.unlockForConfiguration()
            } catch {
                throw StudioError(status: 500, "cannot choose a depth format: \(error)")
            }
        }
        if output.isDepthDataDeliverySupported {
            output.isDepthDataDeliveryEnabled = true
            output.isPortraitEffectsMatteDeliveryEnabled = output.isPortraitEffectsMatteDeliverySupported
        }
        // 15 frames a second: enough for the viewfinder (12) and Live Photo movies (15), and half the CPU of 30, which
        // the studio's photos, fusion and portraits need on a 2-core machine.
        do {
            try device.lockForConfiguration()
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 15)
            device.unlockForConfiguration()
        } catch {
            throw StudioError(status: 500, "cannot set the frame rate: \(error)")
        }
        session.startRunning()
        (self.session, self.output, self.camera, configured) = (session, output, device, (shot.device, shot.lighting))
        return (output, device)
    }

    private func makeSettings(_ shot: Shot, output: AVCapturePhotoOutput, device: AVCaptureDevice) throws -> AVCapturePhotoSettings {
        let jpeg = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        switch shot.mode {
        case .bracket:
            return AVCapturePhotoBracketSettings(
                rawPixelFormatType: 0, processedFormat: jpeg,
                bracketedSettings: [-2, 0, 2].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
        case .raw:
            guard let raw = output.availableRawPhotoPixelFormatTypes.first else { throw StudioError(status: 400, "this camera has no RAW format") }
            let settings = AVCapturePhotoSettings(rawPixelFormatType: raw, processedFormat: jpeg)
            settings.flashMode = output.supportedFlashModes.contains(shot.flash) ? shot.flash : .off
            return settings
        case .depth:
            guard output.isDepthDataDeliveryEnabled else {
                throw StudioError(status: 400, "depth needs the dual or the TrueDepth camera at the photo preset (opencapture studio --preset photo)")
            }
            let settings = AVCapturePhotoSettings(format: jpeg)
            settings.isDepthDataDeliveryEnabled = true
            settings.isPortraitEffectsMatteDeliveryEnabled = output.isPortraitEffectsMatteDeliveryEnabled
            settings.flashMode = output.supportedFlashModes.contains(shot.flash) ? shot.flash : .off
            return settings
        case .photo, .livePhoto:
            let settings = AVCapturePhotoSettings(format: jpeg)
            settings.flashMode = output.supportedFlashModes.contains(shot.flash) ? shot.flash : .off
            return settings
        }
    }
}
