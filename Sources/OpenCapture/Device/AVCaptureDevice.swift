import CameraSimulation
import CaptureCore
import CaptureEngine
import Foundation

/// A capture device (a camera). Mirrors Apple's `AVCaptureDevice`; every device here is backed by
/// the physically simulated camera of `CameraSimulation`, so no hardware is needed.
///
/// Differences: `default(_:for:position:)` returns one shared instance per device type and
/// position, as on iOS; `makeSimulatedDevice(_:position:)` (OpenCapture addition) builds an
/// independent instance for tests. The world in front of the camera is set with
/// `simulatedLighting` and `simulationSeed` (OpenCapture additions).
///
/// `@unchecked Sendable`: `state` guards every mutable field (format, exposure, bias, lock count,
/// lighting, colour space, seed, focus and the camera and rig caches); the rest is immutable.
public final class AVCaptureDevice: NSObject, @unchecked Sendable {
    /// Apple's device types. Only the four below are simulated; `DiscoverySession` finds no others.
    public struct DeviceType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let builtInWideAngleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        public static let builtInTelephotoCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTelephotoCamera")
        public static let builtInUltraWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInUltraWideCamera")
        public static let builtInDualCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualCamera")
        public static let builtInDualWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualWideCamera")
        public static let builtInTripleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTripleCamera")
        public static let builtInTrueDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTrueDepthCamera")
        public static let builtInLiDARDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInLiDARDepthCamera")
        /// The microphone (iOS 17 name).
        public static let microphone = DeviceType(rawValue: "AVCaptureDeviceTypeMicrophone")
        /// The microphone (the name before iOS 17, deprecated there).
        public static let builtInMicrophone = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInMicrophone")
    }

    /// Where the camera faces.
    public enum Position: Int, Sendable {
        case unspecified = 0, back = 1, front = 2
    }

    /// Flash behaviour for a photo (per photo through `AVCapturePhotoSettings.flashMode`).
    public enum FlashMode: Int, Sendable {
        case off = 0, on = 1, auto = 2
    }

    /// Exposure control.
    public enum ExposureMode: Int, Sendable {
        case locked = 0, autoExpose = 1, continuousAutoExposure = 2, custom = 3
    }

    /// Errors from device configuration (OpenCapture addition; Apple uses NSError and exceptions).
    public enum ConfigurationError: DescribedError, Equatable {
        case notLockedForConfiguration(String)
        case valueOutOfRange(String)
        case unsupported(String)

        public var description: String {
            switch self {
            case .notLockedForConfiguration(let what): return "\(what) requires lockForConfiguration()"
            case .valueOutOfRange(let what): return "\(what) is outside the device's supported range"
            case .unsupported(let what): return "\(what) is not supported by this device"
            }
        }
    }

    /// Sentinel for `setExposureModeCustom`: keep the current duration.
    public static let currentExposureDuration = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    /// Sentinel for `setExposureModeCustom`: keep the current ISO.
    public static let currentISO: Float = 0
    /// Sentinel for `setExposureTargetBias`: keep the current bias.
    public static let currentExposureTargetBias: Float = .greatestFiniteMagnitude

    public let deviceType: DeviceType
    public let position: Position
    public let uniqueID: String
    public let modelID: String
    public let localizedName: String
    /// The physical devices a virtual device (the dual camera) is made of; empty otherwise.
    public let constituentDevices: [AVCaptureDevice]
    public let formats: [Format]

    /// The camera modules and scene behind this device.
    let module: CameraModule
    private let state = NSLock()
    private var _activeFormat: Format
    private var _activeDepthDataFormat: Format?
    /// `activeVideoMinFrameDuration` / `MaxFrameDuration` as set; nil = the active format's default (30 fps).
    private var _minFrameDuration: CMTime?
    private var _maxFrameDuration: CMTime?
    /// Whether the app chose `activeDepthDataFormat` since the format last changed (a preset applied at commit keeps it).
    private var depthFormatChosen = false
    /// `activeDepthDataMinFrameDuration` as set; nil = the video's.
    private var _depthMinFrameDuration: CMTime?
    private var _exposureMode: ExposureMode = .continuousAutoExposure
    private var _customDuration: Double = 1.0 / 60
    private var _customISO: Double = 100
    private var _bias: Float = 0
    private var _exposurePoint = SIMD2<Double>(0.5, 0.5)
    private var _monitorsSubjectArea = false
    private var configurationLockCount = 0
    private var _lighting: SimulatedLighting = .indoor
    /// Swings of the simulated phone made with `simulateCameraSwing`, in the order made.
    private var _swings: [CameraSwing] = []
    private var _geometricDistortionCorrection = true
    private var _colorSpace: AVCaptureColorSpace = .sRGB
    private var _seed: UInt64 = 0x0C0F_FEE0
    private var cameras: [CameraKey: SimulatedCamera] = [:]
    private var trueDepthRigs: [SimulatedLighting: TrueDepthRig] = [:]
    /// Focus state (guarded by `state`, used by `AVCaptureDevice+Focus`).
    var focusState: FocusState
    /// White-balance state (guarded by `state`, used by `AVCaptureDevice+WhiteBalance`).
    var whiteBalanceState = WhiteBalanceState()
    /// Held while auto focus sweeps, so a warm-up and a request needing the same focus sweep once.
    let autoFocusLock = NSLock()
    /// Recorded frames that replace the simulation (a replay device).
    let replay: ReplayFrameSource?

    init(deviceType: DeviceType, position: Position, module: CameraModule, constituents: [AVCaptureDevice] = [],
         replay: ReplayFrameSource? = nil, name: String? = nil) {
        self.replay = replay
        self.deviceType = deviceType
        self.position = position
        self.module = module
        self.constituentDevices = constituents
        let kind: String
        switch deviceType {
        case .builtInDualCamera: kind = "Back Dual Camera"
        case .builtInTelephotoCamera: kind = "Back Telephoto Camera"
        case .builtInTrueDepthCamera: kind = "Front TrueDepth Camera"
        case .microphone: kind = "iPhone Microphone"
        default: kind = position == .front ? "Front Camera" : "Back Camera"
        }
        localizedName = name ?? kind
        uniqueID = replay == nil ? "com.opencapture.simulated:\(deviceType.rawValue):\(position.rawValue)"
            : "com.opencapture.replay:\(UUID().uuidString)"
        modelID = "OpenCapture Simulated \(kind)"
        formats = deviceType == .microphone ? [Format(audioFor: module)] : Format.formats(for: module, deviceType: deviceType)
        _activeFormat = formats.last!
        focusState = FocusState(module: module)
        _activeDepthDataFormat = _activeFormat.defaultDepthDataFormat
        super.init()
    }

    // MARK: Discovery

    private static let shared = Locked<[String: AVCaptureDevice]>([:])

    /// The four simulated devices of an iPhone-class phone, built once per process.
    static var allDevices: [AVCaptureDevice] {
        shared.withLock { shared in
            if shared.isEmpty {
                for device in makeDevices() { shared[device.uniqueID] = device }
            }
            return shared.values.sorted { $0.uniqueID < $1.uniqueID }
        }
    }

    private static func makeDevices() -> [AVCaptureDevice] {
        let wide = AVCaptureDevice(deviceType: .builtInWideAngleCamera, position: .back, module: .backWide)
        let tele = AVCaptureDevice(deviceType: .builtInTelephotoCamera, position: .back, module: .backTelephoto)
        let dual = AVCaptureDevice(deviceType: .builtInDualCamera, position: .back, module: .backWide,
                                   constituents: [wide, tele])
        let front = AVCaptureDevice(deviceType: .builtInTrueDepthCamera, position: .front, module: .frontTrueDepth)
        // The TrueDepth camera's colour camera on its own, as iPhones list it ("Front Camera": no depth formats).
        let frontWide = AVCaptureDevice(deviceType: .builtInWideAngleCamera, position: .front, module: .frontTrueDepth)
        return [wide, tele, dual, front, frontWide]
    }

    /// The shared device of a type at a position, or nil if this phone has none.
    public class func `default`(_ deviceType: DeviceType, for mediaType: AVMediaType?, position: Position) -> AVCaptureDevice? {
        if deviceType == .microphone || deviceType == .builtInMicrophone {
            return mediaType == nil || mediaType == .audio ? microphone : nil
        }
        if let mediaType, mediaType != .video { return nil }
        return allDevices.first { $0.deviceType == deviceType && (position == .unspecified || $0.position == position) }
    }

    /// The default device for a media type: the back wide-angle camera for video, the microphone for audio.
    public class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? {
        if mediaType == .audio { return microphone }
        guard mediaType == .video else { return nil }
        return self.default(.builtInWideAngleCamera, for: .video, position: .back)
    }

    /// The phone's microphone: it hears the simulated room (`RoomSound`: room tone, mains hum, the wall
    /// clock's tick each second). It reuses this class, so its camera members (formats aside) mean nothing.
    static let microphone = AVCaptureDevice(deviceType: .microphone, position: .unspecified, module: .backWide)

    /// Whether this is the microphone rather than a camera.
    var isMicrophone: Bool { deviceType == .microphone }

    /// Whether the device captures `mediaType`: video for cameras, audio for the microphone.
    public func hasMediaType(_ mediaType: AVMediaType) -> Bool {
        isMicrophone ? mediaType == .audio : mediaType == .video
    }

    /// A device with the given ID, or nil. Difference: Swift initialisers cannot return the shared
    /// instance, so this is a new device of the same kind with its own state (as `makeSimulatedDevice`).
    public convenience init?(uniqueID deviceUniqueID: String) {
        guard let device = AVCaptureDevice.allDevices.first(where: { $0.uniqueID == deviceUniqueID }) else { return nil }
        self.init(deviceType: device.deviceType, position: device.position, module: device.module,
                  constituents: device.constituentDevices)
    }

    /// OpenCapture addition: a new, independent simulated device (own exposure state, lighting and
    /// seed), for tests that must not share the process-wide devices.
    public static func makeSimulatedDevice(_ deviceType: DeviceType, position: Position) -> AVCaptureDevice? {
        switch (deviceType, position) {
        case (.builtInWideAngleCamera, .back), (.builtInWideAngleCamera, .unspecified):
            return AVCaptureDevice(deviceType: .builtInWideAngleCamera, position: .back, module: .backWide)
        case (.builtInTelephotoCamera, .back), (.builtInTelephotoCamera, .unspecified):
            return AVCaptureDevice(deviceType: .builtInTelephotoCamera, position: .back, module: .backTelephoto)
        case (.builtInDualCamera, .back), (.builtInDualCamera, .unspecified):
            let wide = AVCaptureDevice(deviceType: .builtInWideAngleCamera, position: .back, module: .backWide)
            let tele = AVCaptureDevice(deviceType: .builtInTelephotoCamera, position: .back, module: .backTelephoto)
            return AVCaptureDevice(deviceType: .builtInDualCamera, position: .back, module: .backWide, constituents: [wide, tele])
        case (.builtInTrueDepthCamera, .front), (.builtInTrueDepthCamera, .unspecified):
            return AVCaptureDevice(deviceType: .builtInTrueDepthCamera, position: .front, module: .frontTrueDepth)
        case (.builtInWideAngleCamera, .front):
            return AVCaptureDevice(deviceType: .builtInWideAngleCamera, position: .front, module: .frontTrueDepth)
        case (.microphone, _), (.builtInMicrophone, _):
            return AVCaptureDevice(deviceType: .microphone, position: .unspecified, module: .backWide)
        default:
            return nil
        }
    }

    // MARK: Configuration

    /// Takes the configuration lock; needed before changing format or exposure.
    public func lockForConfiguration() throws {
        state.lock(); configurationLockCount += 1; state.unlock()
    }

    public func unlockForConfiguration() {
        state.lock(); configurationLockCount = max(0, configurationLockCount - 1); state.unlock()
    }

    func requireConfigurationLock(_ what: String) -> Bool { requireLock(what) }

    /// Calls a configuration method's completion `handler`, if any, on a global queue with the host clock's time now
    /// (`CMClockGetHostTimeClock()`, Apple's device clock): when the setting took effect.
    static func complete(_ handler: ((CMTime) -> Void)?) {
        guard let handler else { return }
        let time = CMClockGetTime(CMClockGetHostTimeClock())
        nonisolated(unsafe) let call = handler
        DispatchQueue.global().async { call(time) }
    }

    /// A point of interest being set (`name`): nil, reported, without the configuration lock, when not `supported`,
    /// or outside (0, 0)…(1, 1) (Apple raises); else the point.
    func validatedPointOfInterest(_ name: String, _ point: CGPoint, supported: Bool) -> SIMD2<Double>? {
        guard requireLock(name) else { return nil }
        guard supported else {
            DeviceDiagnostics.report(ConfigurationError.unsupported(name))
            return nil
        }
        guard point.x >= 0, point.x <= 1, point.y >= 0, point.y <= 1 else {
            DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("\(name) \(point)"))
            return nil
        }
        return SIMD2(Double(point.x), Double(point.y))
    }

    /// Runs `body` on the focus state under the device's lock (with the lighting, seed and format readable).
    func withFocusState<T>(_ body: (inout FocusState) -> T) -> T {
        state.lock(); defer { state.unlock() }
        return body(&focusState)
    }

    /// Runs `body` on the white-balance state under the device's lock.
    func withWhiteBalanceState<T>(_ body: (inout WhiteBalanceState) -> T) -> T {
        state.lock(); defer { state.unlock() }
        return body(&whiteBalanceState)
    }

    /// Read with `state` held (inside `withFocusState`).
    var simulatedLightingLocked: SimulatedLighting { _lighting }
    var simulationSeedLocked: UInt64 { _seed }
    var activeFormatLocked: Format { _activeFormat }

    /// The simulated camera auto focus exposes through for `module`; nil for replayed frames.
    func cameraForFocus(_ module: CameraModule) -> SimulatedCamera? {
        state.lock(); defer { state.unlock() }
        return cameraLocked(module: module) as? SimulatedCamera
    }

    private func requireLock(_ what: String) -> Bool {
        state.lock(); defer { state.unlock() }
        if configurationLockCount == 0 {
            // Apple raises NSGenericException here; OpenCapture ignores the change and reports it.
            DeviceDiagnostics.report(ConfigurationError.notLockedForConfiguration(what))
            return false
        }
        return true
    }

    /// The format in use. Setting it requires the configuration lock; a session preset other than
    /// `.inputPriority` also sets it.
    public var activeFormat: Format {
        get { state.lock(); defer { state.unlock() }; return _activeFormat }
        set {
            guard requireLock("activeFormat") else { return }
            guard formats.contains(where: { $0 === newValue }) else {
                DeviceDiagnostics.report(ConfigurationError.unsupported("activeFormat \(newValue) of another device"))
                return
            }
            setActiveFormat(newValue)
        }
    }

    /// Makes `format` active and resets the frame durations. The depth format goes back to the format's default,
    /// or, with `keepingDepthFormat` when the app chose one (a session applying its preset at `commitConfiguration`
    /// after the app picked a depth format inside the configuration block), to the new format's depth format of the
    /// same size and type when it has one. With `keepingDepthFormat`, setting the format it already has changes nothing.
    func setActiveFormat(_ format: Format, keepingDepthFormat: Bool = false) {
        state.lock()
        if format === _activeFormat && keepingDepthFormat { state.unlock(); return }
        let previous = keepingDepthFormat && depthFormatChosen ? _activeDepthDataFormat?.formatDescription : nil
        _activeFormat = format
        _activeDepthDataFormat = previous.flatMap { old in
            format.supportedDepthDataFormats.first { $0.formatDescription == old }
        } ?? format.defaultDepthDataFormat
        depthFormatChosen = previous != nil && _activeDepthDataFormat != nil
        _minFrameDuration = nil
        _maxFrameDuration = nil
        _depthMinFrameDuration = nil
        state.unlock()
    }

    /// The shortest time between frames, i.e. 1 / the highest frame rate (default 1/30 s, and reset to it when
    /// `activeFormat` changes). Setting it requires the configuration lock; a value outside the active format's
    /// `videoSupportedFrameRateRanges` is reported to `DeviceDiagnostics` and ignored (Apple raises); `.invalid`
    /// restores the default. The running stream picks a new value up when the session reconfigures or restarts.
    public var activeVideoMinFrameDuration: CMTime {
        get { state.lock(); defer { state.unlock() }; return _minFrameDuration ?? Self.defaultFrameDuration }
        set { setFrameDuration(newValue, name: "activeVideoMinFrameDuration") { $0._minFrameDuration = $1 } }
    }

    /// The shortest time between depth maps a depth data output delivers (default: `activeVideoMinFrameDuration`,
    /// and reset to it when `activeFormat` or `activeDepthDataFormat` changes). Setting it requires the
    /// configuration lock and a value no shorter than the video's and within the depth format's 2–30 fps; others
    /// are reported to `DeviceDiagnostics` and ignored (Apple raises); `.invalid` restores the default.
    /// The simulator measures each depth map in real time: maps it cannot finish in time are dropped as late.
    public var activeDepthDataMinFrameDuration: CMTime {
        get { state.lock(); defer { state.unlock() }; return _depthMinFrameDuration ?? _minFrameDuration ?? Self.defaultFrameDuration }
        set {
            guard requireLock("activeDepthDataMinFrameDuration") else { return }
            guard newValue.isValid else { state.withLock { _depthMinFrameDuration = nil }; return }
            let video = activeVideoMinFrameDuration.seconds
            let ranges = activeDepthDataFormat?.videoSupportedFrameRateRanges ?? []
            let rate = 1 / newValue.seconds
            guard newValue.seconds >= video - 1e-9, ranges.contains(where: {
                rate >= $0.minFrameRate - 1e-6 && rate <= $0.maxFrameRate + 1e-6
            }) else {
                DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("activeDepthDataMinFrameDuration \(newValue.seconds) s"))
                return
            }
            state.withLock { _depthMinFrameDuration = newValue }
        }
    }

    /// The longest time between frames (default 1/30 s). OpenCapture's stream runs at
    /// `activeVideoMinFrameDuration`; this one is kept and validated like it.
    public var activeVideoMaxFrameDuration: CMTime {
        get { state.lock(); defer { state.unlock() }; return _maxFrameDuration ?? Self.defaultFrameDuration }
        set { setFrameDuration(newValue, name: "activeVideoMaxFrameDuration") { $0._maxFrameDuration = $1 } }
    }

    static let defaultFrameDuration = CMTime(value: 1, timescale: 30)

    private func setFrameDuration(_ value: CMTime, name: String, _ store: (AVCaptureDevice, CMTime?) -> Void) {
        guard requireLock(name) else { return }
        if !value.isValid {
            state.lock(); store(self, nil); state.unlock()
            return
        }
        let rate = 1 / value.seconds
        guard value.seconds > 0, activeFormat.videoSupportedFrameRateRanges.contains(where: {
            rate >= $0.minFrameRate - 1e-6 && rate <= $0.maxFrameRate + 1e-6
        }) else {
            DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("\(name) \(value.seconds) s"))
            return
        }
        state.lock(); store(self, value); state.unlock()
    }

    /// The depth format in use: one of `activeFormat.supportedDepthDataFormats`, nil when it has none.
    /// Setting it requires the configuration lock; a format not in that list (or nil while the list
    /// is not empty) is reported to `DeviceDiagnostics` and ignored (Apple raises). Changing
    /// `activeFormat` resets it to that format's Float16 disparity format of the largest size.
    public var activeDepthDataFormat: Format? {
        get { state.lock(); defer { state.unlock() }; return _activeDepthDataFormat }
        set {
            guard requireLock("activeDepthDataFormat") else { return }
            state.lock()
            let supported = _activeFormat.supportedDepthDataFormats
            let accepted = newValue.map { new in supported.contains { $0 === new } } ?? supported.isEmpty
            if accepted { _activeDepthDataFormat = newValue; _depthMinFrameDuration = nil; depthFormatChosen = true }
            state.unlock()
            if !accepted {
                let name = newValue.map { "activeDepthDataFormat \($0)" } ?? "activeDepthDataFormat nil"
                DeviceDiagnostics.report(ConfigurationError.unsupported("\(name) (not in activeFormat.supportedDepthDataFormats)"))
            }
        }
    }

    public var isVirtualDevice: Bool { !constituentDevices.isEmpty }
    public var hasFlash: Bool { module.hasFlash }
    /// The flash can fire now (never thermally limited in the simulation).
    public var isFlashAvailable: Bool { module.hasFlash }
    public var hasTorch: Bool { false }
    public var isConnected: Bool { true }
    public var isSuspended: Bool { false }
    /// Lens focal length in millimetres (OpenCapture addition).
    public var focalLength: Double { module.focalLength }
    /// Lens f-number; Apple exposes it as `lensAperture`.
    public var lensAperture: Float { Float(module.fNumber) }

    // MARK: Lens

    /// Whether the device can correct its lens's geometric distortion: true, as every simulated lens distorts (Apple
    /// supports it on some devices, such as very wide lenses).
    public var isGeometricDistortionCorrectionSupported: Bool { module.hasLensDistortion }

    /// Whether processed photos are corrected for the lens's distortion (and, in OpenCapture, its lateral chromatic
    /// aberration); true by default where supported, set under the configuration lock. RAW photos keep both, with
    /// DNG opcodes that undo them; video frames are not corrected. A corrected photo's depth map is measured into the
    /// corrected view and its calibration carries no lens tables; with correction off, photo, depth and the
    /// calibration's tables all keep the lens's distortion.
    public var isGeometricDistortionCorrectionEnabled: Bool {
        get { state.lock(); defer { state.unlock() }; return _geometricDistortionCorrection && isGeometricDistortionCorrectionSupported }
        set {
            guard requireLock("isGeometricDistortionCorrectionEnabled") else { return }
            guard isGeometricDistortionCorrectionSupported || !newValue else {
                DeviceDiagnostics.report(ConfigurationError.unsupported("isGeometricDistortionCorrectionEnabled"))
                return
            }
            state.lock(); _geometricDistortionCorrection = newValue; state.unlock()
        }
    }

    // MARK: Colour

    /// The colour space photos are rendered in. Setting it needs the configuration lock and a value
    /// in `activeFormat.supportedColorSpaces`; a session that `automaticallyConfiguresCaptureDeviceForWideColor`
    /// sets it to P3 when it has a photo output.
    public var activeColorSpace: AVCaptureColorSpace {
        get { state.lock(); defer { state.unlock() }; return _colorSpace }
        set {
            guard requireLock("activeColorSpace") else { return }
            guard activeFormat.supportedColorSpaces.contains(newValue) else {
                DeviceDiagnostics.report(ConfigurationError.unsupported("activeColorSpace \(newValue)"))
                return
            }
            setActiveColorSpace(newValue)
        }
    }

    func setActiveColorSpace(_ space: AVCaptureColorSpace) {
        state.lock(); _colorSpace = space; state.unlock()
    }

    // MARK: Exposure

    public func isExposureModeSupported(_ exposureMode: ExposureMode) -> Bool { true }

    public var exposureMode: ExposureMode {
        get { state.lock(); defer { state.unlock() }; return _exposureMode }
        set {
            guard requireLock("exposureMode") else { return }
            if newValue == .locked {
                let current = currentExposure()
                state.lock(); _customDuration = current.duration; _customISO = current.iso; state.unlock()
            }
            state.lock(); _exposureMode = newValue; state.unlock()
        }
    }

    /// Whether an exposure point of interest can be set (every simulated camera meters; replayed files do not).
    public var isExposurePointOfInterestSupported: Bool { replay == nil }

    /// Where auto exposure meters: (0, 0) top-left, (1, 1) bottom-right of the unrotated landscape image (default the
    /// centre); the meter weights the scene around it. Setting it needs the configuration lock; in the auto modes it
    /// takes effect at once (Apple applies it when `exposureMode` is next set to an auto mode).
    public var exposurePointOfInterest: CGPoint {
        get { state.withLock { CGPoint(x: _exposurePoint.x, y: _exposurePoint.y) } }
        set {
            guard let point = validatedPointOfInterest("exposurePointOfInterest", newValue,
                                                       supported: isExposurePointOfInterestSupported) else { return }
            state.withLock { _exposurePoint = point }
        }
    }

    /// Whether auto exposure is still settling: always false here (the simulated meter settles at once).
    public var isAdjustingExposure: Bool { false }

    /// Whether the device posts `.AVCaptureDeviceSubjectAreaDidChange` when what it sees changes substantially: here
    /// when the simulated lighting changes or `simulateCameraSwing` turns the phone (default false; setting it needs
    /// the configuration lock).
    public var isSubjectAreaChangeMonitoringEnabled: Bool {
        get { state.withLock { _monitorsSubjectArea } }
        set {
            guard requireLock("isSubjectAreaChangeMonitoringEnabled") else { return }
            state.withLock { _monitorsSubjectArea = newValue }
        }
    }

    /// The exposure duration in use: metered in the auto modes, fixed in custom and locked modes.
    public var exposureDuration: CMTime { CMTime(seconds: currentExposure().duration, preferredTimescale: 1_000_000_000) }
    /// The ISO in use: metered in the auto modes, fixed in custom and locked modes.
    public var iso: Float { Float(currentExposure().iso) }

    public var exposureTargetBias: Float { state.lock(); defer { state.unlock() }; return _bias }
    public var minExposureTargetBias: Float { -8 }
    public var maxExposureTargetBias: Float { 8 }
    /// How far the current exposure is from the metered target, in EV (0 in the auto modes).
    public var exposureTargetOffset: Float {
        let mode = exposureMode
        guard mode == .custom || mode == .locked else { return 0 }
        let current = currentExposure()
        let point = state.withLock { _exposurePoint }
        let metered = camera.meter(size: activeFormat.sensorReadoutSize, bias: Double(exposureTargetBias), flash: false,
                                   keepsHighlightHeadroom: true, at: point)
        return Float(log2((current.duration * current.iso) / (metered.duration * metered.iso)))
    }

    /// Switches to `.custom` with the given duration and ISO (sentinels keep the current value).
    /// Values outside the active format's range are reported and ignored (Apple raises), and the handler is not called.
    /// The handler runs on a global queue with the host clock's time (`CMClockGetHostTimeClock()`, Apple's device
    /// clock) at which the settings took effect (photos requested and stream frames exposed from then on use them).
    public func setExposureModeCustom(duration: CMTime, iso ISO: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        guard requireLock("setExposureModeCustom") else { return }
        let format = activeFormat
        let current = currentExposure()
        let seconds = duration == AVCaptureDevice.currentExposureDuration ? current.duration : duration.seconds
        let isoValue = ISO == AVCaptureDevice.currentISO ? current.iso : Double(ISO)
        guard seconds >= format.minExposureDuration.seconds - 1e-12, seconds <= format.maxExposureDuration.seconds + 1e-12,
              isoValue >= Double(format.minISO), isoValue <= Double(format.maxISO) else {
            DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("custom exposure \(seconds) s @ ISO \(isoValue)"))
            return
        }
        state.lock()
        _exposureMode = .custom; _customDuration = seconds; _customISO = isoValue
        state.unlock()
        Self.complete(handler)
    }

    /// Sets the exposure target bias in EV, clamped by Apple's rule to min…max (out of range is reported and ignored,
    /// and the handler is not called). The handler runs on a global queue with the host clock's time
    /// (`CMClockGetHostTimeClock()`, Apple's device clock) at which the bias took effect.
    public func setExposureTargetBias(_ bias: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        guard requireLock("setExposureTargetBias") else { return }
        if bias != AVCaptureDevice.currentExposureTargetBias {
            guard bias >= minExposureTargetBias, bias <= maxExposureTargetBias else {
                DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("exposure target bias \(bias)"))
                return
            }
            state.lock(); _bias = bias; state.unlock()
        }
        Self.complete(handler)
    }

    /// The exposure the device would use now: metered (with the bias) or fixed.
    func currentExposure() -> (duration: Double, iso: Double) {
        captureSnapshot().currentExposure(size: activeFormat.sensorReadoutSize)
    }

    // MARK: Simulation (OpenCapture additions)

    /// The lighting of the simulated world in front of this camera (default `.indoor`).
    public var simulatedLighting: SimulatedLighting {
        get { state.lock(); defer { state.unlock() }; return _lighting }
        set {
            // Auto focus re-scans: lighting is in its key.
            let changed = state.withLock { () -> Bool in
                defer { _lighting = newValue }
                return _lighting != newValue
            }
            if changed { subjectAreaDidChange() }
        }
    }

    /// Turns the simulated phone by `pitchDegrees` (positive: toward the floor, as when lowering it after a shot)
    /// and `yawDegrees` (positive: to the right) over `duration` seconds from `time` on the session's
    /// `synchronizationClock`, easing in and out. Stream frames (video data, movies, Live Photo movies) see it:
    /// they blur along the swing and the phone's simulated gyroscope reads it, which Live Photo auto-trimming
    /// uses. Swings add up; the phone stays where they leave it until `removeSimulatedCameraSwings()`. Photos
    /// are taken from the pose of the shot (the hand shake only).
    public func simulateCameraSwing(at time: CMTime, pitchDegrees: Double, yawDegrees: Double = 0, duration: Double = 0.5) {
        let swing = CameraSwing(start: time.seconds, duration: duration,
                                angles: SIMD2(yawDegrees, pitchDegrees) * (.pi / 180))
        state.withLock { _swings.append(swing) }
        subjectAreaDidChange()
    }

    /// Posts `.AVCaptureDeviceSubjectAreaDidChange` (object: the device) when monitoring is on.
    private func subjectAreaDidChange() {
        guard isSubjectAreaChangeMonitoringEnabled else { return }
        NotificationCenter.default.post(name: .AVCaptureDeviceSubjectAreaDidChange, object: self)
    }

    /// Returns the simulated phone to where it was before any `simulateCameraSwing`.
    public func removeSimulatedCameraSwings() {
        state.withLock { _swings.removeAll() }
    }

    /// Seed of the simulated sensor's fixed-pattern noise and hand shake. Captures are
    /// reproducible for the same seed, settings and request order.
    public var simulationSeed: UInt64 {
        get { state.lock(); defer { state.unlock() }; return _seed }
        set {
            state.lock()
            if _seed != newValue { _seed = newValue; cameras = [:]; trueDepthRigs = [:]; focusState.found = [:] }
            state.unlock()
        }
    }

    /// Where frames come from: recorded files for a replay device, otherwise the simulated camera
    /// for the current lighting and seed (cached, so the rendered scene is reused).
    var camera: any FrameSource {
        state.lock(); defer { state.unlock() }
        return cameraLocked()
    }

    /// A simulated camera's cache key: the lighting, the module (a dual camera has two) and its seed.
    struct CameraKey: Hashable {
        var lighting: SimulatedLighting
        var module: String
        var seed: UInt64
    }

    func cameraLocked(module: CameraModule? = nil, seed: UInt64? = nil) -> any FrameSource {
        if let replay { return replay }
        let module = module ?? self.module, seed = seed ?? _seed
        let key = CameraKey(lighting: _lighting, module: module.name, seed: seed)
        if let camera = cameras[key] { return camera }
        let camera = SimulatedCamera(module: module, scene: .livingRoom(lighting: _lighting.sceneLighting), seed: seed)
        cameras[key] = camera
        return camera
    }

    /// How this device measures depth: stereo for the dual camera, structured light for TrueDepth.
    var depthCapability: DepthCapability? {
        guard replay == nil else { return nil }
        switch deviceType {
        case .builtInDualCamera: return .stereo
        case .builtInTrueDepthCamera: return .structuredLight
        default: return nil
        }
    }

    enum DepthCapability { case stereo, structuredLight }

    /// What a running session does before the first request, as a phone's camera pipeline does: auto focus for
    /// the module a photo of `photoSize` uses, then the scene rendered (or read from the render cache) at that
    /// readout size and focus, so the first photo waits for neither.
    /// `isCurrent` is asked before each step; false stops the warm-up (what it prepared for changed).
    func prepareForFirstPhoto(photoSize: Size, withDepth: Bool, isCurrent: () -> Bool = { true }) {
        let stereo = withDepth && depthCapability == .stereo
        let photoModule = stereo ? CameraModule.backTelephoto : module
        guard isCurrent() else { return }
        let focus = focusSnapshot(for: photoModule)
        guard isCurrent(), let camera = cameraForFocus(photoModule) else { return }
        camera.prepare(size: photoModule.readoutSize(forPhoto: photoSize), focusDistance: focus?.distance)
        // The dual camera's other eye: the wide camera at its stereo readout, focused as the photo's lens.
        if stereo, isCurrent(), let depth = activeDepthDataFormat?.dimensions, let eye = cameraForFocus(module) {
            let size = DepthDeveloper.stereoSecondaryReadout(depth: Size(width: Int(depth.width), height: Int(depth.height)),
                                                             primary: photoModule, secondary: module)
            eye.prepare(size: size, focusDistance: focus?.distance)
        }
    }

    /// Everything a capture depends on, read at once under the device's lock: later changes to
    /// exposure, bias, lighting, seed or focus do not reach a request already made. With `withDepth`
    /// the dual camera takes the photo with its telephoto lens (whose whole view the wide lens also
    /// sees) and adds the wide lens as the second eye; TrueDepth adds its dot projector.
    func captureSnapshot(withDepth: Bool = false) -> DeviceSnapshot {
        // Focus first (auto focus may expose frames), outside the state lock.
        let depthCapability = withDepth ? self.depthCapability : nil
        let photoModule = depthCapability == .stereo ? CameraModule.backTelephoto : module
        let focus = focusSnapshot(for: photoModule)
        state.lock(); defer { state.unlock() }
        let exposure: ExposureControl
        switch _exposureMode {
        case .custom, .locked: exposure = .manual(duration: _customDuration, iso: _customISO)
        case .autoExpose, .continuousAutoExposure: exposure = .automatic
        }
        var depthSource: DepthSource?
        switch depthCapability {
        case .stereo:
            // The same session seed: both lenses sit in one phone, so they share its hand-shake trajectory
            // (their fixed-pattern noise still differs: it is drawn per readout size, and the two eyes read out at different sizes).
            depthSource = .stereo(secondary: cameraLocked(module: module), module: module)
        case .structuredLight:
            let rig = trueDepthRigs[_lighting] ?? TrueDepthRig(scene: .livingRoom(lighting: _lighting.sceneLighting), seed: _seed)
            trueDepthRigs[_lighting] = rig
            depthSource = .structuredLight(rig)
        case nil:
            break
        }
        var snapshot = DeviceSnapshot(module: photoModule, source: cameraLocked(module: photoModule), name: localizedName,
                                      exposure: exposure, bias: Double(_bias), seed: _seed,
                                      colorSpace: _colorSpace == .P3_D65 ? .displayP3 : .sRGB, focus: focus, depthSource: depthSource)
        snapshot.correctsDistortion = _geometricDistortionCorrection
        snapshot.exposurePoint = _exposurePoint
        snapshot.whiteBalanceNeutral = whiteBalanceState.lockedGains.map(WhiteBalanceConversion.neutral(gains:))
        snapshot.swings = { [weak self] in
            guard let self else { return [] }
            return state.withLock { _swings }
        }
        return snapshot
    }
}
