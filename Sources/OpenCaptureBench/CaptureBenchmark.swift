import Foundation
import OpenCapture

/// Request-to-JPEG-delivered time for a 12 MP photo through the public API.
enum CaptureBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        guard let device = AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back) else { return }
        device.simulatedLighting = .indoor
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = .photo
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
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
        report("capture.12mp.first_request_to_jpeg", first, "s", format: "%.3f", anchor: "includes rendering the scene once")
        report("capture.12mp.jpeg_size", Double(bytes) / 1e6, "MB", format: "%.2f", anchor: "OpenCV q90 3.67 MB on real content")
    }

    static func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try await body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
