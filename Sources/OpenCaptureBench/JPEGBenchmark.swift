import CameraSimulation
import CaptureCore
import ImagePipeline
import MediaFormats

/// libjpeg-turbo encode time on a developed 12 MP frame.
enum JPEGBenchmark {
    static func run(_ options: BenchmarkOptions) throws {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 5)
        let size = CameraModule.backWide.nativeSize
        let m = camera.meter(size: size, keepsHighlightHeadroom: false)
        let rgb = ImageSignalProcessor().process(camera.capture(SensorExposure(size: size, duration: m.duration, iso: m.iso, seed: 1)))
        for quality in [90, 95] {
            var data: [UInt8] = []
            let times = try (0..<options.repetitions).map { _ in
                try measure { data = Array(try JPEGEncoder.encode(rgb, quality: quality)) }.1
            }
            report("jpeg.12mp.q\(quality).encode", median(times) * 1000, "ms", format: "%.0f",
                   anchor: quality == 90 ? "OpenCV/libjpeg-turbo 75 ms, 3.67 MB" : "OpenCV/libjpeg-turbo 84 ms, 5.32 MB")
            report("jpeg.12mp.q\(quality).size", Double(data.count) / 1e6, "MB", format: "%.2f")
        }
    }
}
