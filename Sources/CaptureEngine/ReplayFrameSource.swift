import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats

/// Frames from recorded raw files (any camera raw or DNG LibRaw reads), delivered in order and
/// cycled. They are replayed as recorded: exposure requests do not change them, and they have
/// no ground truth.
///
/// `@unchecked Sendable`: `frames` and `infos` are immutable; `lock` guards `next`, the only mutable field.
package final class ReplayFrameSource: FrameSource, @unchecked Sendable {
    package let frames: [RawImage]
    package let infos: [RawFileInfo]
    private let lock = NSLock()
    private var next = 0

    package init(frames: [RawImage], infos: [RawFileInfo]) {
        self.frames = frames
        self.infos = infos
    }

    /// The recorded frame's own exposure (the point of interest changes nothing: the files are what they are): its EV100
    /// is what a meter reading it as normal would have read, and the scene's brightness the file's own BrightnessValue
    /// when it has one (the recording camera measured the scene; its exposure may have been held back or biased).
    package func meter(size: Size, bias: Double, flash: Bool, keepsHighlightHeadroom: Bool, at point: SIMD2<Double>) -> ExposureMetering {
        let index = lock.withLock { next } % frames.count
        let record = frames[index].exposure
        let ev100 = ExposureMetering.exposureValue100(fNumber: fNumber, duration: max(record.duration, 1e-6),
                                                      iso: max(record.iso, 1))
        let brightness = infos[index].exif?.brightnessValue.flatMap { $0.isFinite ? $0 : nil }
        return ExposureMetering(duration: record.duration, iso: record.iso, sceneLuminance: 0, exposureValue100: ev100,
                                brightnessValue: brightness, isLowLight: false, flashRecommended: false)
    }

    package func capture(_ exposure: SensorExposure) -> RawImage {
        let index = lock.withLock { () -> Int in
            defer { next += 1 }
            return next % frames.count
        }
        return frames[index]
    }

    package func groundTruth(_ exposure: SensorExposure) -> Raster<Float>? { nil }
    package func depthMap(size: Size) -> Raster<Float>? { nil }
    package func prepare(size: Size) -> Bool { false }
    package func isPrepared(size: Size) -> Bool { true }
    package func purgeCaches() {}

    /// The recorded lens's f-number (the first file's; f/1.8 when it does not say), which its module and metering share.
    private var fNumber: Double { infos[0].fNumber > 0 ? infos[0].fNumber : 1.8 }

    /// A camera module describing the recorded sensor, so formats and EXIF are right.
    package func module(name: String) -> CameraModule {
        let first = frames[0], info = infos[0]
        return CameraModule(
            name: name, position: .back, focalLength: info.focalLength > 0 ? info.focalLength : 4,
            focalLength35mmEquivalent: 28, fNumber: fNumber, pixelPitch: 1.2,
            nativeSize: Size(width: first.width, height: first.height), cfa: first.cfa, bitDepth: first.bitDepth,
            blackLevel: Int(first.blackLevel.first ?? 0), fullWellElectrons: 10_000, readNoiseElectrons: 2,
            darkCurrentElectronsPerSecond: 0, prnu: 0, dsnuElectrons: 0, baseISO: 25,
            isoRange: 1...102_400, exposureDurationRange: 1e-6...60, hasFlash: false, hasOpticalStabilization: false,
            lensPosition: SIMD3(0, 0, 0), cameraToSRGB: first.cameraToSRGB, quantumEfficiency: 0.5,
            whiteResponse: first.asShotNeutral)
    }
}
