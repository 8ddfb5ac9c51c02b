import CaptureCore
import Foundation

/// A camera module looking at a scene: thread-safe; caches the rendered scene per readout size.
///
/// `Sendable`: its caches guard themselves; the rest is immutable.
public final class SimulatedCamera: Sendable {
    /// The hardware.
    public let module: CameraModule
    /// The world it looks at.
    public let scene: SimulatedScene
    /// Session seed: fixed-pattern noise (PRNU/DSNU) and the hand-shake trajectory derive from it.
    public let seed: UInt64

    let renderer: SceneRenderer
    let shake: HandShake
    /// Rendered scenes per readout size (all in focus), radiance views per size (metering and truth), and
    /// defocused planes by readout size and focus (in `focusQuantum` dioptre steps; the most recent few only: a
    /// full-resolution entry is ≈ 200 MB). A key is built by one caller at a time (again after a purge or an eviction),
    /// and a build never holds up another key's.
    private let sensorCache = BuildOnceCache<Size, SensorPlanes>()
    private let radianceCache = BuildOnceCache<Size, RadianceView>()
    private let defocusCache = BuildOnceCache<DefocusKey, SensorPlanes>(limit: 2)
    /// The fixed-pattern noise per readout size (shared by its sharp and defocused planes).
    private let patternCache = BuildOnceCache<Size, PlaneStorage<Int8>>()

    struct DefocusKey: Hashable {
        var size: Size
        var focusSteps: Int
    }
    /// True person masks per size (`personMask(size:)`).
    let personMaskCache = BuildOnceCache<Size, Raster<Float>>()
    /// Renders kept on disk between processes (nil: off).
    let renderCache: RenderCache?
    /// Creates a camera; rendering happens lazily, once per readout size (and is kept on disk between
    /// processes: see `OPENCAPTURE_RENDER_CACHE` in the README).
    public convenience init(module: CameraModule, scene: SimulatedScene, seed: UInt64 = 0) {
        self.init(module: module, scene: scene, seed: seed, renderCache: RenderCache.shared)
    }

    init(module: CameraModule, scene: SimulatedScene, seed: UInt64, renderCache: RenderCache?) {
        self.module = module
        self.scene = scene
        self.seed = seed
        self.renderCache = renderCache
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
        guard sensorCache[size] == nil else { return false }
        _ = sensorPlanes(size: size)
        return true
    }

    /// Renders (or reads from the render cache) what a capture at readout `size` needs with the lens focused at
    /// `focusDistance` (nil: all in focus), ahead of the first capture.
    public func prepare(size: Size, focusDistance: Double?) {
        var exposure = SensorExposure(size: size, duration: 0, iso: module.baseISO)
        exposure.focusDistance = focusDistance
        _ = sensorPlanes(for: exposure)
    }

    /// Whether the scene is already rendered for a readout size (all in focus, or at some focus).
    public func isPrepared(size: Size) -> Bool {
        sensorCache[size] != nil || defocusCache.keys.contains { $0.size == size }
    }

    /// Drops the cached renders (they are rebuilt on demand).
    public func purgeCaches() {
        sensorCache.removeAll()
        defocusCache.removeAll()
        patternCache.removeAll()
        radianceCache.removeAll()
        personMaskCache.removeAll()
    }

    func residualShake(_ ois: Bool) -> Double {
        ois && module.hasOpticalStabilization ? 0.2 : 1
    }

    func sensorPlanes(size: Size) -> SensorPlanes {
        sensorCache.value(for: size) {
            if let stored = storedPlanes(size: size, focusSteps: nil) { return stored }
            let rendered = renderSensorPlanes(ViewGeometry(module: module, size: size))
            store(rendered, focusSteps: nil)
            return rendered
        }
    }

    /// The planes an exposure sees: all in focus, or defocused for its focus distance.
    func sensorPlanes(for exposure: SensorExposure) -> SensorPlanes {
        guard let focus = exposure.focusDistance else { return sensorPlanes(size: exposure.size) }
        let key = DefocusKey(size: exposure.size, focusSteps: focusSteps(focus))
        return defocusCache.value(for: key) {
            if let stored = storedPlanes(size: exposure.size, focusSteps: key.focusSteps) { return stored }
            let built = defocused(sensorPlanes(size: exposure.size), geometry: ViewGeometry(module: module, size: exposure.size),
                                  focusDistance: SimulatedCamera.focusDistance(steps: key.focusSteps))
            store(built, focusSteps: key.focusSteps)
            return built
        }
    }

    /// Planes an earlier process rendered for this camera (nil focus: all in focus), with this session's
    /// fixed-pattern noise.
    private func storedPlanes(size: Size, focusSteps: Int?) -> SensorPlanes? {
        guard let cache = renderCache,
              let stored = cache.load(key: RenderCache.key(module: module, scene: scene, size: size, focusSteps: focusSteps),
                                      width: size.width, height: size.height) else { return nil }
        return SensorPlanes(width: size.width, height: size.height, rate: stored.rate, flashRatio: stored.flashRatio,
                            fixedPattern: fixedPattern(size: size), depth: stored.depth)
    }

    /// This session's fixed-pattern noise for a readout size: made once per process, or read from the render cache
    /// where an earlier process made it (24 MB at 12 MP: drawing it was a tenth of a first photo's wait).
    func fixedPattern(size: Size) -> PlaneStorage<Int8> {
        patternCache.value(for: size) {
            let seed = fixedPatternSeed(size), key = RenderCache.patternKey(seed: seed, size: size)
            if let stored = renderCache?.loadPattern(key: key, width: size.width, height: size.height) { return stored }
            let made = PlaneStorage(SensorPlanes.makeFixedPattern(width: size.width, height: size.height, seed: seed))
            renderCache?.storePattern(key: key, width: size.width, height: size.height, made)
            return made
        }
    }

    private func store(_ planes: SensorPlanes, focusSteps: Int?) {
        let size = Size(width: planes.width, height: planes.height)
        renderCache?.store(key: RenderCache.key(module: module, scene: scene, size: size, focusSteps: focusSteps),
                           width: planes.width, height: planes.height, rate: planes.rate,
                           flashRatio: planes.flashRatio, depth: planes.depth)
    }

    /// Seed of a readout size's fixed-pattern noise (from the session seed).
    func fixedPatternSeed(_ size: Size) -> UInt64 {
        RandomSource.mix(RandomSource.mix(seed, 0xF1ED_5EED), UInt64(size.width) << 32 | UInt64(size.height))
    }

    /// The scene as this lens sees it at `size` (metering's small view, the ground truth's full one): rendered once
    /// per process, or read from the render cache where an earlier process rendered it.
    func radianceView(size: Size) -> RadianceView {
        radianceCache.value(for: size) {
            let key = RenderCache.viewKey(module: module, scene: scene, size: size)
            if let stored = renderCache?.load(key: key, width: size.width, height: size.height) {
                return RadianceView(width: size.width, height: size.height, radiance: stored.rate.values,
                                    flashLuminance: stored.flashRatio.values, depth: stored.depth.values)
            }
            let view = renderRadianceView(ViewGeometry(module: module, size: size))
            renderCache?.store(key: key, width: size.width, height: size.height, rate: PlaneStorage(view.radiance),
                               flashRatio: PlaneStorage(view.flashLuminance), depth: PlaneStorage(view.depth))
            return view
        }
    }
}
