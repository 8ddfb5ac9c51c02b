import CameraSimulation
import CaptureCore
import CaptureEngine
import Dispatch
import Foundation

/// Focus, as Apple's `AVCaptureDevice` exposes it. The lens really moves: photos blur what is off
/// the focus distance by the thin-lens circle of confusion, and auto focus finds the subject at the
/// point of interest by contrast detection on frames the simulated sensor exposes.
extension AVCaptureDevice {
    /// How the lens focuses.
    public enum FocusMode: Int, Sendable {
        /// The lens stays where it is (`lensPosition`).
        case locked = 0
        /// One scan at the point of interest, then `.locked`.
        case autoFocus = 1
        /// Focus follows the point of interest (here: scanned again whenever the point, lighting or seed changes).
        case continuousAutoFocus = 2
    }

    /// Sentinel for `setFocusModeLocked(lensPosition:)`: keep the current lens position.
    public static let currentLensPosition: Float = -1

    /// The auto modes need a lens that moves; the front TrueDepth camera is fixed-focus and supports `.locked` only.
    public func isFocusModeSupported(_ focusMode: FocusMode) -> Bool {
        focusMode == .locked || (module.supportsAutoFocus && replay == nil)
    }

    /// The focus mode (default `.continuousAutoFocus`, `.locked` on fixed-focus cameras). Setting it needs the
    /// configuration lock and a supported mode (else reported and ignored). `.autoFocus` scans once, then
    /// becomes `.locked`.
    public var focusMode: FocusMode {
        get { withFocusState { $0.mode } }
        set {
            guard requireConfigurationLock("focusMode") else { return }
            guard isFocusModeSupported(newValue) else {
                DeviceDiagnostics.report(ConfigurationError.unsupported("focusMode \(newValue)"))
                return
            }
            withFocusState { state in
                state.mode = newValue
                if newValue != .locked { state.found = [:] }
            }
            if newValue == .autoFocus {
                let module = focusModule
                DispatchQueue.global().async { [self] in
                    _ = focusSnapshot(for: module)
                    withFocusState { state in if state.mode == .autoFocus { state.mode = .locked } }
                }
            }
        }
    }

    /// Whether a point of interest can be set (cameras with auto focus).
    public var isFocusPointOfInterestSupported: Bool { module.supportsAutoFocus && replay == nil }

    /// Where auto focus looks: (0, 0) top-left, (1, 1) bottom-right of the unrotated landscape image
    /// (default the centre). Setting it needs the configuration lock; it takes effect with the next
    /// `.autoFocus` or at once in `.continuousAutoFocus`, as on iOS.
    public var focusPointOfInterest: CGPoint {
        get { withFocusState { CGPoint(x: $0.pointOfInterest.x, y: $0.pointOfInterest.y) } }
        set {
            guard let point = validatedPointOfInterest("focusPointOfInterest", newValue,
                                                       supported: isFocusPointOfInterestSupported) else { return }
            withFocusState { state in
                state.pointOfInterest = point
                if state.mode == .continuousAutoFocus { state.found = [:] }
            }
        }
    }

    /// True while an auto-focus scan runs.
    public var isAdjustingFocus: Bool { withFocusState { $0.adjusting } }

    /// The lens position, 0 (nearest focus) … 1 (infinity), linear in dioptres. In
    /// `.continuousAutoFocus` reading it first brings focus up to date (a scan when the point of
    /// interest, lighting or seed changed).
    public var lensPosition: Float { Float(focusSnapshot(for: focusModule)?.lensPosition ?? 1) }

    /// Whether `setFocusModeLocked(lensPosition:completionHandler:)` can move the lens (cameras with auto focus).
    public var isLockingFocusWithCustomLensPositionSupported: Bool { module.supportsAutoFocus && replay == nil }

    /// Nearest focus distance in millimetres (Apple's `Int`; −1 when unknown, as for replayed frames).
    public var minimumFocusDistance: Int {
        replay == nil ? Int((module.minimumFocusDistance * 1000).rounded()) : -1
    }

    /// Locks focus with the lens at `lensPosition` (0…1; `currentLensPosition` keeps it). Needs the
    /// configuration lock; values outside 0…1 or a fixed-focus lens are reported and ignored (Apple raises).
    /// The handler gets the time the lens arrived on the host clock (`CMClockGetHostTimeClock()`, Apple's device
    /// clock), on a global queue.
    public func setFocusModeLocked(lensPosition: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        guard requireConfigurationLock("setFocusModeLocked") else { return }
        guard isLockingFocusWithCustomLensPositionSupported else {
            DeviceDiagnostics.report(ConfigurationError.unsupported("setFocusModeLocked(lensPosition:)"))
            return
        }
        let keep = lensPosition == AVCaptureDevice.currentLensPosition
        guard keep || (0...1).contains(lensPosition) else {
            DeviceDiagnostics.report(ConfigurationError.valueOutOfRange("lensPosition \(lensPosition)"))
            return
        }
        let module = focusModule
        let current = keep ? (focusSnapshot(for: module)?.lensPosition ?? 1) : Double(lensPosition)
        withFocusState { state in
            state.mode = .locked
            state.positions[module.name] = current
        }
        Self.complete(handler)
    }

    // MARK: Internals

    /// The module whose lens the focus API describes (the device's own; the dual camera's wide).
    var focusModule: CameraModule { module }

    /// The focus a capture with `module` uses now, running auto focus first when the auto modes
    /// need it. Nil for replayed frames.
    func focusSnapshot(for module: CameraModule) -> FocusSnapshot? {
        guard replay == nil else { return nil }
        func current() -> (point: SIMD2<Double>, key: FocusState.Key, known: Double?) {
            withFocusState { state in
                let key = FocusState.Key(lighting: simulatedLightingLocked, seed: simulationSeedLocked,
                                         pointOfInterest: state.pointOfInterest, size: activeFormatLocked.sensorReadoutSize)
                let found = state.found[module.name] == key
                return (state.pointOfInterest, key, found || state.mode == .locked ? state.position(module) : nil)
            }
        }
        func snapshot(_ position: Double, _ point: SIMD2<Double>) -> FocusSnapshot {
            FocusSnapshot(distance: module.focusDistance(lensPosition: position), lensPosition: position, pointOfInterest: point)
        }
        if let known = current().known { return snapshot(known, current().point) }
        // One sweep at a time: a second caller finds the first one's answer.
        autoFocusLock.lock()
        defer { autoFocusLock.unlock() }
        let (point, key, known) = current()
        if let known { return snapshot(known, point) }
        guard module.supportsAutoFocus, let camera = cameraForFocus(module) else {
            let position = withFocusState { $0.position(module) }
            return FocusSnapshot(distance: module.focusDistance(lensPosition: position), lensPosition: position,
                                 pointOfInterest: point)
        }
        withFocusState { $0.adjusting = true }
        let metering = camera.meter(size: key.size, bias: 0)
        let exposure = SensorExposure(size: key.size, duration: metering.duration, iso: metering.iso,
                                      seed: RandomSource.mix(key.seed, 0xAF))
        let result = camera.autoFocus(pointOfInterest: point, size: key.size, exposure: exposure)
        withFocusState { state in
            state.positions[module.name] = result.lensPosition
            state.found[module.name] = key
            state.adjusting = false
        }
        return FocusSnapshot(distance: result.focusDistance, lensPosition: result.lensPosition, pointOfInterest: point)
    }
}

/// A device's focus: mode, point of interest, and each module's lens position with the conditions
/// auto focus found it for. Guarded by the device's `state` lock.
struct FocusState {
    struct Key: Hashable {
        var lighting: SimulatedLighting
        var seed: UInt64
        var pointOfInterest: SIMD2<Double>
        var size: Size
    }

    var mode: AVCaptureDevice.FocusMode
    var pointOfInterest = SIMD2<Double>(0.5, 0.5)
    var positions: [String: Double] = [:]
    /// The conditions each module's position was found for by auto focus.
    var found: [String: Key] = [:]
    var adjusting = false

    init(module: CameraModule) {
        mode = module.supportsAutoFocus ? .continuousAutoFocus : .locked
    }

    /// A module's lens position: where it was put, else at its hyperfocal distance.
    func position(_ module: CameraModule) -> Double {
        positions[module.name] ?? module.lensPosition(focusDistance: module.hyperfocalDistance)
    }
}
