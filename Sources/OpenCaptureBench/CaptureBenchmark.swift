import Foundation
import OpenCapture

/// Request-to-JPEG-delivered time for a 12 MP photo through the public API.
enum CaptureBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        guard let (session, device, output) = try BenchmarkSession.start(.builtInWideAngleCamera) else { return }
        defer { session.stopRunning() }

        var times: [Double] = []
        var first = 0.0
        var bytes = 0
        for run in 0...options.repetitions {
            let (result, seconds) = try await timed { try await output.capturePhotos(with: AVCapturePhotoSettings()) }
            bytes = result.photos.first?.fileDataRepresentation()?.count ?? 0
            if run == 0 { first = seconds } else { times.append(seconds) }
        }
        let exposure = device.exposureDuration.seconds
        report("capture.12mp.request_to_jpeg", median(times), "s", format: "%.3f", anchor: "target ≤ 0.25 s; includes \(String(format: "%.1f", exposure * 1000)) ms exposure")
        report("capture.12mp.first_request_to_jpeg", first, "s", format: "%.3f", anchor: "right after startRunning, rendering the scene (no render cache in process: see e2e)")
        report("capture.12mp.jpeg_size", Double(bytes) / 1e6, "MB", format: "%.2f", anchor: "OpenCV q90 3.67 MB on real content")
    }

    static func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try await body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

/// A 12 MP bracket's exposure (request → didCapturePhoto) and total time, with and without
/// `setPreparedPhotoSettingsArray`.
enum PreparedBracketBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        func bracket() -> AVCapturePhotoBracketSettings {
            AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                          bracketedSettings: [-2, 0, 2].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
        }
        var starts: [Bool: Double] = [:], totals: [Bool: Double] = [:]
        for prepared in [false, true] {
            guard let device = AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back) else { return }
            device.simulationSeed = prepared ? 101 : 202
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.sessionPreset = .photo
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(output)
            session.startRunning()
            if prepared {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    output.setPreparedPhotoSettingsArray([bracket()]) { _, _ in done.resume() }
                }
            }
            let result = try await output.capturePhotos(with: bracket())
            starts[prepared] = result.events.first { $0.kind == .didCapturePhoto }?.time
            totals[prepared] = result.events.last?.time
            session.stopRunning()
        }
        report("bracket.12mp.x3.exposed.unprepared", (starts[false] ?? 0) * 1000, "ms", format: "%.0f",
               anchor: "request → didCapturePhoto; three 1/15 s exposures")
        report("bracket.12mp.x3.exposed.prepared", (starts[true] ?? 0) * 1000, "ms", format: "%.0f",
               anchor: "after setPreparedPhotoSettingsArray")
        report("bracket.12mp.x3.total.unprepared", totals[false] ?? 0, "s", format: "%.2f", anchor: "request → didFinishCapture")
        report("bracket.12mp.x3.total.prepared", totals[true] ?? 0, "s", format: "%.2f")
    }
}
