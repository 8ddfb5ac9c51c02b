import CameraSimulation
import CaptureCore

/// Time to expose a 12 MP frame on the simulated sensor (scene render once, then per capture).
enum SensorBenchmark {
    static func run(_ options: BenchmarkOptions) {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 3)
        let size = CameraModule.backWide.nativeSize
        let metering = camera.meter(size: size, keepsHighlightHeadroom: false)
        let (_, render) = measure { camera.capture(SensorExposure(size: size, duration: metering.duration, iso: metering.iso, seed: 0)) }
        var times: [Double] = []
        for i in 0..<options.repetitions {
            let exposure = SensorExposure(size: size, duration: metering.duration, iso: metering.iso, seed: UInt64(i + 1))
            times.append(measure { camera.capture(exposure) }.1)
        }
        report("sensor.12mp.first_capture", render, "s", format: "%.3f", anchor: "renders and caches the scene")
        report("sensor.12mp.capture", median(times) * 1000, "ms", format: "%.0f")
        // Defocus: the wide focused at 0.6 m (the room behind blurs by up to ≈ 12 px); the first capture at a new
        // focus computes and caches the defocused planes.
        let focused = SensorExposure(size: size, duration: metering.duration, iso: metering.iso, seed: 1, focusDistance: 0.6)
        let (_, defocusFirst) = measure { camera.capture(focused) }
        let (_, defocusCached) = measure { camera.capture(focused) }
        report("sensor.12mp.defocus_pass", (defocusFirst - defocusCached) * 1000, "ms", format: "%.0f",
               anchor: "DefocusBlur over rate + flash planes, wide at 0.6 m")
    }
}
