import CaptureCore
import Foundation

/// A camera module looking at a scene: thread-safe; caches the rendered scene per readout size.
///
/// `@unchecked Sendable`: `sensorLock` guards `sensorCache` and `defocusCache`, `radianceLock` guards
/// `radianceCache`, the only mutable fields; the rest is immutable.
public final class SimulatedCamera: @unchecked Sendable {
    /// The hardware.
    public let module: CameraModule
    /// The world it looks at.
    public let scene: SimulatedScene
    /// Session seed: fixed-pattern noise (PRNU/DSNU) and the hand-shake trajectory derive from it.
    public let seed: UInt64

    let renderer: SceneRenderer
    let shake: HandShake
    // Separate locks so metering (small radiance view) never waits for a full-resolution sensor render.
    private let sensorLock = NSLock()
    private let radianceLock = NSLock()
    private var sensorCache: [Size: SensorPlanes] = [:]
    private var radianceCache: [Size: RadianceView] = [:]
    /// Defocused planes by readout size and focus (in `focusQuantum` dioptre steps), the most recent few only
    /// (a full-resolution entry is ≈ 200 MB).
    private var defocusCache: [DefocusKey: SensorPlanes] = [:]
    private var defocusOrder: [DefocusKey] = []
    private static let defocusCacheLimit = 2

    struct DefocusKey: Hashable {
        var size: Size
        var focusSteps: Int
    }
    /// True person masks per size (`personMask(size:)`), behind their own lock.
    let personMaskCache = Locked<[Size: Raster<Float>]>([:])

    /// Creates a camera; rendering happens lazily, once per readout size.
    public init(module: CameraModule, scene: SimulatedScene, seed: UInt64 = 0) {
        self.module = module
        self.scene = scene
        self.seed = seed
        renderer = SceneRenderer(scene: scene)
        shake = HandShake(seed: seed)
    }

    /// Absolute scene radiance (cd/m², linear sRGB, 3 channels) as seen by this lens at `size` (box-filtered per pixel).
    public func sceneRadiance(size: Size) -> Raster<Float> {
        let view = radianceView(size: size)
        return Raster(width: view.width, height: view.height, channels: 3, storage: view.radiance)
    }

    /// Depth along the optical axis (metres, 1 channel) at each pixel centre at `size`.
    public func depthMap(size: Size) -> Raster<Float> {
        let view = radianceView(size: size)
        return Raster(width: view.width, height: view.height, channels: 1, storage: view.depth)
    }

    /// Image position (pixels, continuous; (0, 0) is the top-left corner) of world point `point` at readout `size`,
    /// or nil when it is behind the lens. Ignores hand shake (the position at rest).
    public func pixelLocation(of point: SIMD3<Double>, size: Size) -> SIMD2<Double>? {
        ViewGeometry(module: module, size: size).project(point)
    }

    /// Hand-shake offset in pixels at session time `time` for readout `size` (rest position = zero), with OIS if requested and fitted.
    public func shakeOffset(at time: Double, size: Size, opticalStabilization: Bool = false) -> SIMD2<Double> {
        let g = ViewGeometry(module: module, size: size)
        return shake.angles(at: time) * (g.focalPixels * residualShake(opticalStabilization))
    }

    /// Renders and caches the scene for a readout size ahead of the first capture (what a prepared
    /// capture pipeline does); later captures at that size skip the render. Returns whether it rendered.
    @discardableResult
    public func prepare(size: Size) -> Bool {
        let cached = sensorLock.withLock { sensorCache[size] != nil }
        if !cached { _ = sensorPlanes(size: size) }
        return !cached
    }

    /// Whether the scene is already rendered for a readout size.
    public func isPrepared(size: Size) -> Bool {
        sensorLock.withLock { sensorCache[size] != nil }
    }

    /// Drops the cached renders (they are rebuilt on demand).
    public func purgeCaches() {
        sensorLock.withLock {
            sensorCache.removeAll()
            defocusCache.removeAll()
            defocusOrder.removeAll()
        }
        radianceLock.withLock { radianceCache.removeAll() }
        personMaskCache.withLock { $0.removeAll() }
    }

    func residualShake(_ ois: Bool) -> Double {
        ois && module.hasOpticalStabilization ? 0.2 : 1
    }

    func sensorPlanes(size: Size) -> SensorPlanes {
        sensorLock.lock()
        defer { sensorLock.unlock() }
        if let cached = sensorCache[size] { return cached }
        let planes = renderSensorPlanes(ViewGeometry(module: module, size: size))
        sensorCache[size] = planes
        return planes
    }

    /// The planes an exposure sees: all in focus, or defocused for its focus distance.
    func sensorPlanes(for exposure: SensorExposure) -> SensorPlanes {
        guard let focus = exposure.focusDistance else { return sensorPlanes(size: exposure.size) }
        let key = DefocusKey(size: exposure.size, focusSteps: focusSteps(focus))
        if let cached = sensorLock.withLock({ defocusCache[key] }) { return cached }
        let sharp = sensorPlanes(size: exposure.size)
        let planes = defocused(sharp, geometry: ViewGeometry(module: module, size: exposure.size),
                               focusDistance: SimulatedCamera.focusDistance(steps: key.focusSteps))
        sensorLock.withLock {
            if defocusCache[key] == nil {
                defocusCache[key] = planes
                defocusOrder.append(key)
                if defocusOrder.count > SimulatedCamera.defocusCacheLimit { defocusCache[defocusOrder.removeFirst()] = nil }
            }
        }
        return planes
    }

    func radianceView(size: Size) -> RadianceView {
        radianceLock.lock()
        defer { radianceLock.unlock() }
        if let cached = radianceCache[size] { return cached }
        let view = renderRadianceView(ViewGeometry(module: module, size: size))
        radianceCache[size] = view
        return view
    }
}
