import CaptureCore
import Foundation
import ImagePipeline
import OpenCapture

/// Photos with depth through the public API at the photo preset (12 MP): the time a request takes
/// with and without depth on the same camera (steady state, after a first capture renders the
/// scenes), and the delivered depth against the simulator's truth (dual camera: 768×576 relative
/// disparity, error in pixels of shift; TrueDepth: 640×480 absolute depth, error in mm on the face).
enum DepthCaptureBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        try await dual(options)
        try await trueDepth(options)
    }

    /// A running session on `type` at the photo preset with depth delivery enabled where supported.
    static func session(_ type: AVCaptureDevice.DeviceType, position: AVCaptureDevice.Position)
        throws -> (AVCaptureSession, AVCapturePhotoOutput)? {
        guard let (session, _, output) = try BenchmarkSession.start(type, position: position) else { return nil }
        output.isDepthDataDeliveryEnabled = output.isDepthDataDeliverySupported
        return (session, output)
    }

    static func settings(depth: Bool) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        settings.isDepthDataDeliveryEnabled = depth
        return settings
    }

    /// Median steady-state request → HEIC delivered time of `plain` (no depth) and `depthOutput` (with depth),
    /// and the last photo with depth. The first request of each renders its scenes and is not counted.
    static func timeRequests(plain plainOutput: AVCapturePhotoOutput, depth depthOutput: AVCapturePhotoOutput,
                             runs: Int) async throws -> (plain: Double, depth: Double, AVCapturePhoto) {
        _ = try await plainOutput.capturePhotos(with: settings(depth: false))
        _ = try await depthOutput.capturePhotos(with: settings(depth: true))
        var plain: [Double] = [], withDepth: [Double] = []
        var last: AVCapturePhoto?
        for _ in 0..<max(1, runs) {
            let (_, p) = try await CaptureBenchmark.timed { try await plainOutput.capturePhotos(with: settings(depth: false)) }
            let (result, d) = try await CaptureBenchmark.timed { try await depthOutput.capturePhotos(with: settings(depth: true)) }
            plain.append(p); withDepth.append(d)
            last = result.photos.first
        }
        guard let photo = last else { throw BenchmarkError(description: "depth: no photo delivered") }
        return (median(plain), median(withDepth), photo)
    }

    static func dual(_ options: BenchmarkOptions) async throws {
        // The dual camera's photo with depth is its telephoto's: the baseline is the telephoto camera alone.
        guard let (session, output) = try session(.builtInDualCamera, position: .back),
              let (teleSession, tele) = try self.session(.builtInTelephotoCamera, position: .back) else { return }
        defer { session.stopRunning(); teleSession.stopRunning() }
        let (plain, withDepth, photo) = try await timeRequests(plain: tele, depth: output, runs: options.repetitions)
        report("depth.dual.request_to_heic", plain, "s", format: "%.2f", anchor: "12 MP telephoto HEIC, no depth (telephoto camera)")
        report("depth.dual.request_to_heic_with_depth", withDepth, "s", format: "%.2f",
               anchor: String(format: "+%.2f s: the wide eye's frame, rectification, SGM, filter, embedding", withDepth - plain))
        guard let depth = photo.depthData?.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32),
              let measured = floats(depth.depthDataMap), let truth = photo.simulationGroundTruth(),
              let calibration = depth.cameraCalibrationData else {
            throw BenchmarkError(description: "depth: the dual camera delivered no depth or truth")
        }
        let size: Size = measured.size
        var inverse = Raster<Float>(width: truth.width, height: truth.height, channels: 1, storage: truth.depth.map { 1 / $0 })
        inverse = Resampler.downscale(inverse, to: size)
        // Shift in pixels at the map's size per 1/m: f (px at this size) × baseline (1 cm).
        let focal = Double(calibration.intrinsicMatrix.columns.0.x)
        let reference = Double(calibration.intrinsicMatrixReferenceDimensions.width)
        let fB = Float(focal * Double(size.width) / reference * 0.01)
        var bad1 = 0, bad2 = 0, count = 0, sum: Float = 0
        for i in measured.storage.indices {
            let m: Float = measured.storage[i], t: Float = inverse.storage[i]
            guard m.isFinite, t.isFinite else { continue }
            let shift: Float = abs(m - t) * fB
            if shift > 1 { bad1 += 1 }
            if shift > 2 { bad2 += 1 }
            sum += abs(m - t)
            count += 1
        }
        report("depth.dual.size", Double(size.width), "px wide", format: "%.0f", anchor: "\(size.width)×\(size.height), Apple: 768×576")
        report("depth.dual.bad1_all", 100 * Double(bad1) / Double(max(count, 1)), "%", format: "%.1f",
               anchor: "|Δ shift| > 1 px, all pixels (the window and plain surfaces carry no parallax)")
        report("depth.dual.bad2_all", 100 * Double(bad2) / Double(max(count, 1)), "%", format: "%.1f", anchor: "|Δ shift| > 2 px")
        report("depth.dual.mean_error", Double(sum) / Double(max(count, 1)), "1/m", format: "%.3f", anchor: "mean |Δ disparity|")
    }

    static func trueDepth(_ options: BenchmarkOptions) async throws {
        guard let (session, output) = try session(.builtInTrueDepthCamera, position: .front) else { return }
        defer { session.stopRunning() }
        let (plain, withDepth, photo) = try await timeRequests(plain: output, depth: output, runs: options.repetitions)
        report("depth.truedepth.request_to_heic", plain, "s", format: "%.2f", anchor: "front camera HEIC, no depth")
        report("depth.truedepth.request_to_heic_with_depth", withDepth, "s", format: "%.2f",
               anchor: String(format: "+%.2f s: infrared frame, decode, registration, filter, embedding", withDepth - plain))
        guard let depth = photo.depthData?.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32),
              let measured = floats(depth.depthDataMap), let truth = photo.simulationGroundTruth() else {
            throw BenchmarkError(description: "depth: the TrueDepth camera delivered no depth or truth")
        }
        var metres = Raster<Float>(width: truth.width, height: truth.height, channels: 1, storage: truth.depth)
        metres = Resampler.downscale(metres, to: measured.size)
        // The person at arm's length: true depth under 1 m.
        var errors: [Float] = []
        for (m, t) in zip(measured.storage, metres.storage) where t < 1 && m.isFinite { errors.append(abs(m - t) * 1000) }
        errors.sort()
        guard !errors.isEmpty else { throw BenchmarkError(description: "depth: no TrueDepth pixels nearer than 1 m") }
        report("depth.truedepth.near_median_error", Double(errors[errors.count / 2]), "mm", format: "%.2f",
               anchor: "pixels nearer than 1 m (the person), filtered map")
        report("depth.truedepth.near_p90_error", Double(errors[errors.count * 9 / 10]), "mm", format: "%.1f")
    }

    /// A 32-bit float one-component buffer's values, read through the public CoreVideo functions.
    static func floats(_ buffer: CVPixelBuffer) -> Raster<Float>? {
        guard CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_DisparityFloat32
                || CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_DepthFloat32 else { return nil }
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return nil }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        var raster = Raster<Float>(width: width, height: height, channels: 1)
        for y in 0..<height {
            let row = (base + y * stride).assumingMemoryBound(to: Float.self)
            for x in 0..<width { raster.storage[y * width + x] = row[x] }
        }
        return raster
    }
}
