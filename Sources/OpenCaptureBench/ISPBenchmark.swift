import CameraSimulation
import CaptureCore
import ImagePipeline

/// ISP throughput and fidelity on simulator frames: MP/s on 12 MP, CPSNR against ground truth.
enum ISPBenchmark {
    static func run(_ options: BenchmarkOptions) {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 5)
        let size = CameraModule.backWide.nativeSize
        let metering = camera.meter(size: size, keepsHighlightHeadroom: false)
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
        // What correcting the lens costs inside the ISP (distortion + lateral CA, resampled from windows of linear camera
        // RGB): the default demosaic with the correction off.
        if raw.lensCorrection != nil {
            var settings = ISPSettings()
            settings.correctsDistortion = false
            let isp = ImageSignalProcessor(settings: settings)
            _ = isp.process(raw)
            let times = (0..<options.repetitions).map { _ in measure { isp.process(raw) }.1 }
            report("isp.12mp.residualInterpolation.without_lens_correction.throughput", megapixels / median(times), "MP/s",
                   format: "%.0f", anchor: "inner stage: the same ISP in one pass, the lens left uncorrected")
        }
        // How much of the CPSNR the lens's lateral chromatic aberration costs: the same camera with red and blue
        // magnified ± `chromatic` against green (the wide lens has ± 0.04 %): no correction on either side, then the
        // ISP's correction with the truth corrected alike.
        for chromatic in [0.0, 0.0001, 0.0004] {
            var module = CameraModule.backWide
            let green = module.lensDistortion[module.lensDistortion.count == 3 ? 1 : 0]
            module.lensDistortion = [green + SIMD4(chromatic, 0, 0, 0), green, green - SIMD4(chromatic, 0, 0, 0)]
            let cam = SimulatedCamera(module: module, scene: .livingRoom(lighting: .indoor), seed: 5)
            let small = Size(width: 1008, height: 756)
            let m = cam.meter(size: small, keepsHighlightHeadroom: false)
            let e = SensorExposure(size: small, duration: m.duration, iso: m.iso, seed: 21)
            let frame = cam.capture(e)
            var settings = ISPSettings()
            settings.sharpening = 0
            settings.correctsDistortion = false
            let isp = ImageSignalProcessor(settings: settings)
            let seen: Raster<Float> = cam.groundTruth(e)
            let truth = frame.lensCorrection.map { $0.correctedLikeISP(seen, settings: settings, cameraToSRGB: frame.cameraToSRGB) } ?? seen
            report(String(format: "isp.cpsnr_vs_ground_truth.base_iso.lateral_ca_%.2f_percent", chromatic * 100),
                   ImageQuality.cpsnr(isp.process(frame), isp.renderReference(truth), border: 10), "dB", format: "%.2f",
                   anchor: "default demosaic, no lens correction on either side")
            // The same with the ISP's correction and the truth corrected alike: at 0 % it shows what the distortion warp
            // itself costs (nothing measurable), above it what the correction after demosaicing gives back.
            settings.correctsDistortion = true
            let corrected = ImageSignalProcessor(settings: settings)
            let correctedTruth = frame.lensCorrection.map { $0.correctedLikeISP(seen, settings: settings, cameraToSRGB: frame.cameraToSRGB) } ?? seen
            report(String(format: "isp.cpsnr_vs_ground_truth.base_iso.lateral_ca_%.2f_percent.corrected", chromatic * 100),
                   ImageQuality.cpsnr(corrected.process(frame), corrected.renderReference(correctedTruth), border: 10), "dB",
                   format: "%.2f", anchor: "default demosaic, distortion and CA corrected after it (truth corrected alike)")
        }
        // Fidelity against the simulator's ground truth (through the same colour and tone), at a size
        // where noise matters little (base ISO, binned). "reconstruction": sharpening off, so the figure
        // is what demosaicing and noise reduction lose; "as_shipped": the default look, whose
        // sharpening deliberately departs from the truth.
        for (label, iso) in [("base_iso", metering.iso), ("iso800", 800.0)] {
            let small = Size(width: 1008, height: 756)
            let m = camera.meter(size: small, keepsHighlightHeadroom: false)
            let e = SensorExposure(size: small, duration: m.duration * m.iso / iso, iso: iso, seed: 21)
            let frame = camera.capture(e)
            // The truth as the ISP corrects its photo (the lens's shading and distortion), so only the
            // reconstruction's losses count.
            let seen: Raster<Float> = camera.groundTruth(e)
            let truth = frame.lensCorrection.map { $0.correctedLikeISP(seen, settings: ISPSettings(), cameraToSRGB: frame.cameraToSRGB) } ?? seen
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
