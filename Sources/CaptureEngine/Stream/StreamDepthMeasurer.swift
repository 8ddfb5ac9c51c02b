import CameraSimulation
import CaptureCore
import Depth
import ImagePipeline

/// Depth for a running stream's frames, measured by the device's depth hardware the way a photo's depth is
/// (`DepthDeveloper`), at the active depth format's size:
///
/// - Dual camera: the stream runs on the telephoto lens (as an iPhone locks its dual camera to the telephoto
///   while depth streams); for each measured frame the wide lens is exposed at the same moment, at the stereo
///   readout for the depth size, and the pair is matched.
/// - TrueDepth: the dot projector's infrared frame for that moment is decoded and registered to the colour camera.
///
/// The filter's guide is the frame's own luma. Frames are measured on the caller's thread; the stream's
/// depth worker decides which frames to measure (`AVCaptureDepthDataOutput` drops the rest as late).
package struct StreamDepthMeasurer: Sendable {
    package let delivery: DepthDelivery
    private let source: DepthSource
    private let module: CameraModule
    /// The second eye's exposure template (metered once when the stream starts, as a video AE holds between re-meterings).
    private let secondary: SecondaryExposure?

    /// Nil when `device` measures no depth.
    package init?(device: DeviceSnapshot, delivery: DepthDelivery, frameExposure: SensorExposure) {
        guard let source = device.depthSource else { return nil }
        self.source = source
        self.module = device.module
        var delivery = delivery
        delivery.embed = false
        delivery.matte = nil
        self.delivery = delivery
        if case .stereo(let second, let secondModule) = source {
            let size = DepthDeveloper.stereoSecondaryReadout(depth: delivery.size, primary: device.module, secondary: secondModule)
            second.prepare(size: size)
            secondary = CapturePlanner.secondaryExposure(second, module: secondModule, size: size, first: frameExposure,
                                                         bias: device.bias, flash: false, manual: device.exposure,
                                                         point: device.exposurePoint)
        } else {
            secondary = nil
        }
    }

    /// The depth map for one stream frame (which must carry its sensor readout), with the calibration of
    /// the camera at the frame's size, as Apple's streamed depth carries the video's; in the frame's geometry (video
    /// is not distortion-corrected), which the calibration's lens tables describe.
    package func measure(_ frame: StreamFrame, filtered: Bool) throws -> DepthMap {
        var delivery = self.delivery
        delivery.filtered = filtered
        guard let raw = frame.raw else { throw DepthError.noData("the stream frame has no sensor readout") }
        let exposure = frame.exposure
        let measurement: DepthDeveloper.Measurement
        switch source {
        case .stereo:
            guard var eye = secondary else { throw DepthError.noData("the stereo pair's second camera is missing") }
            eye.exposure.startTime = exposure.startTime
            eye.exposure.seed = RandomSource.mix(exposure.seed, 0x5EC0)
            eye.exposure.focusDistance = exposure.focusDistance
            let left = eye.source.capture(eye.exposure)
            measurement = try DepthDeveloper.stereo(primary: raw, primaryModule: module, secondary: left,
                                                    secondaryModule: eye.module, delivery: delivery,
                                                    recordedGeometry: true)
        case .structuredLight(let rig):
            let luma = Self.videoLuma(frame.pixelBuffer)
            measurement = try DepthDeveloper.structuredLight(rig: rig, seed: RandomSource.mix(exposure.seed, 0x1D07),
                                                             delivery: delivery, recordedGeometry: true) {
                Resampler.downscale(luma, to: $0)
            }
        }
        var map = measurement.delivered
        map.calibration = module.calibration(size: Size(width: frame.pixelBuffer.width, height: frame.pixelBuffer.height))
        return map
    }

    /// The frame's luma plane, 0…1 (display-referred, as the photo path's guide): video-range Y → (Y − 16) / 219.
    static func videoLuma(_ buffer: PixelBuffer) -> Raster<Float> {
        var out = Raster<Float>(width: buffer.width, height: buffer.height, channels: 1)
        guard let base = buffer.baseAddress(ofPlane: 0)?.assumingMemoryBound(to: UInt8.self) else { return out }
        let stride = buffer.planes[0].bytesPerRow
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                out.storage[y * buffer.width + x] = min(1, max(0, (Float(base[y * stride + x]) - 16) / 219))
            }
        }
        return out
    }
}
