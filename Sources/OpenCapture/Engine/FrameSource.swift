import CameraSimulation
import CaptureCore

/// Where a device's frames come from: the simulated camera, or recorded raw files.
protocol FrameSource: AnyObject, Sendable {
    func meter(size: Size, bias: Double, flash: Bool) -> ExposureMetering
    func capture(_ exposure: SensorExposure) -> RawImage
    /// The noise-free frame, when the source knows it.
    func groundTruth(_ exposure: SensorExposure) -> Raster<Float>?
    func depthMap(size: Size) -> Raster<Float>?
    @discardableResult func prepare(size: Size) -> Bool
    func isPrepared(size: Size) -> Bool
    func purgeCaches()
}

extension FrameSource {
    func meter(size: Size, bias: Double) -> ExposureMetering { meter(size: size, bias: bias, flash: false) }
}

extension SimulatedCamera: FrameSource {
    func groundTruth(_ exposure: SensorExposure) -> Raster<Float>? { groundTruth(exposure) as Raster<Float> }
    func depthMap(size: Size) -> Raster<Float>? { depthMap(size: size) as Raster<Float> }
}
