import CameraSimulation
import CaptureCore
import ImagePipeline

/// ISP throughput and fidelity on simulator frames: MP/s on 12 MP, CPSNR against ground truth.
enum ISPBenchmark {
    static func run(_ options: BenchmarkOptions) {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 5)
        let size = CameraModule.backWide.nativeSize
        let metering = camera.meter(size: size)
        let exposure = SensorExposure(size: size, duration: metering.duration, iso: metering.iso, seed: 11)
        let raw = camera.capture(exposure)
        let megapixels = Double(size.pixelCount) / 1e6
        for method in DemosaicMethod.allCases {
            var settings = ISPSettings()
            settings.demosaic = method
            let isp = ImageSignalProcessor(settings: settings)
            _ = isp.process(raw)
            let times = (0..<options.repetitions).map { _ in measure { isp.process(raw) }.1 }
            report("isp.12mp.\(method.rawValue).throughput", megapixels / median(times), "MP/s", format: "%.0f",
                   anchor: "target ≥ 100 MP/s; LibRaw dcraw_emu AHD 12 MP 2.28 s ≈ 5 MP/s")
        }
        // Fidelity against the simulator's ground truth (through the same colour and tone), at a size
        // where noise matters little (base ISO, binned). "reconstruction": sharpening off, so the figure
        // is what demosaicing and noise reduction lose; "as_shipped": the default look, whose
        // sharpening deliberately departs from the truth.
        for (label, iso) in [("base_iso", metering.iso), ("iso800", 800.0)] {
            let small = Size(width: 1008, height: 756)
            let m = camera.meter(size: small)
            let e = SensorExposure(size: small, duration: m.duration * m.iso / iso, iso: iso, seed: 21)
            let frame = camera.capture(e)
            let truth: Raster<Float> = camera.groundTruth(e)
            for method in [DemosaicMethod.malvarHeCutler, .residualInterpolation] {
                var settings = ISPSettings()
                settings.demosaic = method
                let shipped = ImageSignalProcessor(settings: settings)
                settings.sharpening = 0
                let plain = ImageSignalProcessor(settings: settings)
                let isDefault = method == ISPSettings().demosaic
                let psnr = ImageQuality.cpsnr(plain.process(frame), plain.renderReference(truth), border: 10)
                report("isp.cpsnr_vs_ground_truth.\(label).\(method.rawValue).reconstruction", psnr, "dB", format: "%.2f",
                       anchor: isDefault && label == "base_iso" ? "default demosaic; target ≥ 38 dB" : nil)
                let look = ImageQuality.cpsnr(shipped.process(frame), shipped.renderReference(truth), border: 10)
                report("isp.cpsnr_vs_ground_truth.\(label).\(method.rawValue).as_shipped", look, "dB", format: "%.2f",
                       anchor: "incl. sharpening \(ISPSettings().sharpening)")
            }
        }
    }
}
