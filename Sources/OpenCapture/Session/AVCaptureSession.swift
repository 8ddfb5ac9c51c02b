import CaptureCore
import CaptureEngine
import Foundation

/// Coordinates inputs and outputs (Apple's `AVCaptureSession`). Configuration changes between
/// `beginConfiguration()` and `commitConfiguration()` apply together.
///
/// `@unchecked Sendable`: `lock` guards every mutable field (inputs, outputs, preset, running
/// state, configuration depth, wide-colour flag and clock).
public final class AVCaptureSession: NSObject, @unchecked Sendable {
    /// Quality presets; each selects the device format whose video size matches.
    public struct Preset: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let photo = Preset(rawValue: "AVCaptureSessionPresetPhoto")
        public static let high = Preset(rawValue: "AVCaptureSessionPresetHigh")
        public static let medium = Preset(rawValue: "AVCaptureSessionPresetMedium")
        public static let low = Preset(rawValue: "AVCaptureSessionPresetLow")
        public static let cif352x288 = Preset(rawValue: "AVCaptureSessionPreset352x288")
        public static let vga640x480 = Preset(rawValue: "AVCaptureSessionPreset640x480")
        public static let hd1280x720 = Preset(rawValue: "AVCaptureSessionPreset1280x720")
        public static let hd1920x1080 = Preset(rawValue: "AVCaptureSessionPreset1920x1080")
        public static let inputPriority = Preset(rawValue: "AVCaptureSessionPresetInputPriority")

        /// The video size the preset selects; nil for `.photo` (full sensor) and `.inputPriority`.
        var videoSize: (width: Int, height: Int)? {
            switch self {
            case .high, .hd1920x1080: return (1920, 1080)
            case .medium: return (480, 360)
            case .low: return (192, 144)
            case .cif352x288: return (352, 288)
            case .vga640x480: return (640, 480)
            case .hd1280x720: return (1280, 720)
            default: return nil
            }
        }
    }

    private let lock = NSRecursiveLock()
    private var _inputs: [AVCaptureInput] = []
    private var _outputs: [AVCaptureOutput] = []
    private var _preset: Preset = .high
    private var _running = false
    private var configurationDepth = 0
    private var pendingApply = false
    /// Uptime (ns) at creation: photo timestamps count from it.
    let clockOrigin = DispatchTime.now().uptimeNanoseconds
    private var _captureClock = CaptureClock.system
    /// The camera's frame stream while running with an output that needs it.
    private var stream: FrameStream?

    public override init() { super.init() }

    private var _wideColor = true

    /// When true (the default), the session picks the device's colour space: Display P3 when it has
    /// a photo output, no movie file output and the format supports P3, sRGB otherwise (as Apple's, movies are
    /// recorded in sRGB). Set it to false to choose `activeColorSpace` yourself.
    public var automaticallyConfiguresCaptureDeviceForWideColor: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _wideColor }
        set { lock.lock(); _wideColor = newValue; lock.unlock(); applyConfiguration() }
    }

    public var inputs: [AVCaptureInput] { lock.lock(); defer { lock.unlock() }; return _inputs }
    public var outputs: [AVCaptureOutput] { lock.lock(); defer { lock.unlock() }; return _outputs }
    public var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return _running }
    public var isInterrupted: Bool { false }

    /// The session preset (default `.high`). Setting an unsupported preset is reported and ignored.
    public var sessionPreset: Preset {
        get { lock.lock(); defer { lock.unlock() }; return _preset }
        set {
            guard canSetSessionPreset(newValue) else {
                DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("session preset \(newValue.rawValue)"))
                return
            }
            lock.lock(); _preset = newValue; lock.unlock()
            applyConfiguration()
        }
    }

    public func canSetSessionPreset(_ preset: Preset) -> Bool {
        preset == .photo || preset == .inputPriority || preset.videoSize != nil
    }

    public func beginConfiguration() {
        lock.lock(); configurationDepth += 1; lock.unlock()
    }

    public func commitConfiguration() {
        lock.lock()
        configurationDepth = max(0, configurationDepth - 1)
        let apply = configurationDepth == 0 && pendingApply
        lock.unlock()
        if apply { applyConfiguration() }
    }

    /// Device inputs only: one camera and one microphone per session (no multi-cam yet), each added once.
    public func canAddInput(_ input: AVCaptureInput) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard let new = input as? AVCaptureDeviceInput, !_inputs.contains(where: { $0 === input }) else { return false }
        return !_inputs.contains { ($0 as? AVCaptureDeviceInput)?.device.isMicrophone == new.device.isMicrophone }
    }

    /// Adds an input; an input that cannot be added is reported and ignored (Apple raises).
    public func addInput(_ input: AVCaptureInput) {
        guard canAddInput(input) else {
            DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("adding this input to the session"))
            return
        }
        lock.lock(); _inputs.append(input); lock.unlock()
        applyConfiguration()
    }

    public func removeInput(_ input: AVCaptureInput) {
        lock.lock(); _inputs.removeAll { $0 === input }; lock.unlock()
        applyConfiguration()
    }

    /// One output of each kind; an output already in another session cannot be added, nor a depth data output
    /// to a session whose camera measures no depth.
    public func canAddOutput(_ output: AVCaptureOutput) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if _outputs.contains(where: { $0 === output || type(of: $0) == type(of: output) }) { return false }
        if let other = output.session, other !== self { return false }
        if output.streamNeedsDepth, let camera = Self.camera(in: _inputs), camera.device.depthCapability == nil { return false }
        return true
    }

    public func addOutput(_ output: AVCaptureOutput) {
        guard canAddOutput(output) else {
            DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("adding this output to the session"))
            return
        }
        lock.lock(); _outputs.append(output); lock.unlock()
        applyConfiguration()
    }

    public func removeOutput(_ output: AVCaptureOutput) {
        lock.lock(); _outputs.removeAll { $0 === output }; lock.unlock()
        output.attach(to: nil, connection: nil)
        applyConfiguration()
    }

    /// Starts the flow of data (synchronously, as Apple's blocking call). With a video data, movie file or
    /// Live Photo output, the camera starts streaming frames; the first arrives once the scene is rendered
    /// for the stream's size. Posts `.AVCaptureSessionDidStartRunning` when the session was not running.
    public func startRunning() {
        let started = lock.withLock { () -> Bool in
            defer { _running = true }
            return !_running
        }
        restartStream()
        for output in outputs { output.didChangeConfiguration() }
        if started { NotificationCenter.default.post(name: .AVCaptureSessionDidStartRunning, object: self) }
    }

    /// Stops the session; posts `.AVCaptureSessionDidStopRunning` when it was running.
    public func stopRunning() {
        let stopped = lock.withLock { () -> Bool in
            defer { _running = false }
            return _running
        }
        restartStream()
        for output in outputs { output.didChangeConfiguration() }
        if stopped { NotificationCenter.default.post(name: .AVCaptureSessionDidStopRunning, object: self) }
    }

    /// The running stream, if any (for outputs that read its history).
    var frameStream: FrameStream? { lock.lock(); defer { lock.unlock() }; return stream }

    /// An output's stream needs changed (pixel format, Live Photo on or off): restart the stream if running.
    func outputNeedsStreamChange() {
        if isRunning { restartStream() }
    }

    /// Stops the current stream and, when running with a camera and an output that needs frames, starts a
    /// new one for the device's current format, frame rate, exposure and focus.
    private func restartStream() {
        lock.lock()
        let old = stream
        stream = nil
        let outputs = _outputs
        let running = _running
        let device = Self.camera(in: _inputs)?.device
        lock.unlock()
        old?.stop()
        for output in outputs { output.attachStream(nil) }
        guard running, let device, outputs.contains(where: { $0.needsFrameStream }) else { return }
        let formats = outputs.reduce(into: Set<FourCC>()) { $0.formUnion($1.streamPixelFormats) }
        let depth = outputs.contains { $0.streamNeedsDepth } && device.activeDepthDataFormat != nil
        let configuration = StreamConfiguration(device: device.captureSnapshot(withDepth: depth), size: device.streamSize,
                                                frameRate: 1 / max(1e-3, device.activeVideoMinFrameDuration.seconds),
                                                clockOrigin: clockOrigin, extraPixelFormats: formats, keepsReadout: depth)
        let new = FrameStream(configuration)
        lock.lock()
        guard _running else { lock.unlock(); return }
        stream = new
        lock.unlock()
        for output in outputs { output.attachStream(new) }
        new.start()
    }

    /// The device input feeding the session, if any.
    var deviceInput: AVCaptureDeviceInput? { Self.camera(in: inputs) }

    /// Whether the microphone is one of the session's inputs.
    var hasMicrophone: Bool { inputs.contains { ($0 as? AVCaptureDeviceInput)?.device.isMicrophone == true } }

    /// The camera input among `inputs`.
    static func camera(in inputs: [AVCaptureInput]) -> AVCaptureDeviceInput? {
        inputs.lazy.compactMap { $0 as? AVCaptureDeviceInput }.first { !$0.device.isMicrophone }
    }

    /// The clock photo timestamps and sample-buffer times are expressed in (iOS 15.4): zero when the session was made.
    public var synchronizationClock: CMClock? { CMClock(origin: clockOrigin) }

    /// OpenCapture addition: the date and time zone captures record (default: the system clock).
    /// Set a fixed clock for byte-identical files across runs.
    public var captureClock: CaptureClock {
        get { lock.lock(); defer { lock.unlock() }; return _captureClock }
        set { lock.lock(); _captureClock = newValue; lock.unlock() }
    }

    /// Applies the preset to the device and (re)connects outputs, unless inside begin/commit.
    private func applyConfiguration() {
        lock.lock()
        if configurationDepth > 0 {
            // Inside begin/commit, outputs are connected at once (as Apple's are when added, so an output's
            // `…Supported` properties answer for the new camera); formats and the stream wait for the commit.
            pendingApply = true
            let input = Self.camera(in: _inputs), outputs = _outputs
            lock.unlock()
            connect(outputs, to: input, onlyNew: true)
            return
        }
        pendingApply = false
        let preset = _preset
        let input = Self.camera(in: _inputs)
        let outputs = _outputs
        let wideColor = _wideColor
        lock.unlock()

        if let device = input?.device, preset != .inputPriority {
            let formats = device.formats
            let chosen: AVCaptureDevice.Format?
            if let size = preset.videoSize {
                chosen = formats.first { $0.dimensions.width == size.width && $0.dimensions.height == size.height }
            } else {
                chosen = formats.max { $0.dimensions.pixelCount < $1.dimensions.pixelCount }
            }
            if let chosen { device.setActiveFormat(chosen, keepingDepthFormat: true) }
        }
        if let device = input?.device, wideColor {
            // Apple's rule: P3 for photo capture; a movie file output keeps the session in sRGB (movies are recorded in sRGB).
            let wantsP3 = outputs.contains { $0 is AVCapturePhotoOutput } && !outputs.contains { $0 is AVCaptureMovieFileOutput }
                && device.activeFormat.supportedColorSpaces.contains(.P3_D65)
            device.setActiveColorSpace(wantsP3 ? .P3_D65 : .sRGB)
        }
        connect(outputs, to: input, onlyNew: false)
        if isRunning { restartStream() }
    }

    /// Gives each output a connection from the camera input (keeping an existing one to the same input);
    /// with `onlyNew`, outputs already connected to that input are left alone.
    private func connect(_ outputs: [AVCaptureOutput], to input: AVCaptureDeviceInput?, onlyNew: Bool) {
        for output in outputs {
            if let existing = output.connections.first, existing.input === input {
                if !onlyNew { output.attach(to: self, connection: existing) }
            } else {
                output.attach(to: self, connection: input.map { AVCaptureConnection(input: $0, mediaType: output.connectionMediaType) })
            }
        }
    }
}
