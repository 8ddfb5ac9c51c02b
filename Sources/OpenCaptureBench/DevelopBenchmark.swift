import CameraSimulation
import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import OpenCapture

/// Raw development on a 12 MP simulator frame: DNG write, OpenCapture's `RawDeveloper` against
/// LibRaw's `dcraw_emu -q 3` (AHD) when installed, and each result's CPSNR against ground truth.
enum DevelopBenchmark {
    static func run(_ options: BenchmarkOptions) throws {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 5)
        let size = CameraModule.backWide.nativeSize
        let metering = camera.meter(size: size, keepsHighlightHeadroom: false)
        let exposure = SensorExposure(size: size, duration: metering.duration, iso: metering.iso, seed: 11)
        let raw = camera.capture(exposure)
        var exif = ExifMetadata()
        exif.fNumber = 1.8
        exif.focalLength = 3.99
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Simulated iPhone", exif: exif)

        let dng = try DNGWriter.write(raw, metadata: metadata, preview: nil)
        let writeTimes = try (0..<options.repetitions).map { _ in try measure { try DNGWriter.write(raw, metadata: metadata, preview: nil) }.1 }
        report("dng.12mp.write", median(writeTimes), "s", format: "%.3f",
               anchor: "target ≤ 0.1 s; \(dng.count / 1_048_576) MB uncompressed")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-develop-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dngURL = directory.appendingPathComponent("frame.dng")
        try dng.write(to: dngURL)

        let developer = RawDeveloper()
        var ours = try developer.develop(contentsOf: dngURL, as: .tiff)
        let ourTimes = try (0..<options.repetitions).map { _ in
            try measure { ours = try developer.develop(contentsOf: dngURL, as: .tiff) }.1
        }
        let jpegTimes = try (0..<max(1, options.repetitions / 2)).map { _ in
            try measure { try developer.develop(contentsOf: dngURL, as: .jpeg) }.1
        }
        let ourTime = median(ourTimes)

        let dcraw = ExternalTool.find("dcraw_emu")
        var theirs: (image: Raster<UInt8>, time: Double)?
        if let dcraw {
            var times: [Double] = []
            for _ in 0..<min(3, options.repetitions) {
                times.append(try measure { try ExternalTool.runChecked(dcraw, ["-q", "3", "-w", "-o", "1", "-T", dngURL.path]) }.1)
            }
            let tiff = try Data(contentsOf: URL(fileURLWithPath: dngURL.path + ".tiff"))
            theirs = (try TIFFCodec.decode(tiff), median(times))
        }
        report("develop.12mp.opencapture", ourTime, "s", format: "%.2f", anchor: theirs.map {
            String(format: "dcraw_emu -q 3 (AHD) %.2f s; %.1f× faster; target ≥ 4×", $0.time, $0.time / ourTime)
        } ?? "dcraw_emu not installed; LibRaw AHD anchor 2.28 s")
        report("develop.12mp.opencapture.jpeg", median(jpegTimes), "s", format: "%.2f", anchor: "develop + JPEG q92 with EXIF and ICC")

        // Each develop against the truth in its own geometry: ours applies the DNG's lens opcodes (shading,
        // distortion) as the ISP does; dcraw_emu applies none.
        let seen: Raster<Float> = camera.groundTruth(exposure)
        let correctedTruth = raw.lensCorrection.map { $0.correctedLikeISP(seen, settings: ISPSettings(), cameraToSRGB: raw.cameraToSRGB) } ?? seen
        let truth = ImageSignalProcessor().renderReference(correctedTruth)
        let recordedTruth = ImageSignalProcessor().renderReference(seen)
        let image = try TIFFCodec.decode(ours.data)
        report("develop.12mp.opencapture.cpsnr_vs_ground_truth", ImageQuality.cpsnr(image, truth), "dB", format: "%.2f",
               anchor: String(format: "after per-channel gain+gamma fit %.2f dB", ImageQuality.cpsnr(fitted(image, to: truth), truth)))
        if let theirs {
            guard theirs.image.width == recordedTruth.width, theirs.image.height == recordedTruth.height else {
                report("develop.12mp.dcraw_emu.size_mismatch", Double(theirs.image.width), "px wide", format: "%.0f")
                return
            }
            report("develop.12mp.dcraw_emu_ahd.cpsnr_vs_ground_truth", ImageQuality.cpsnr(theirs.image, recordedTruth), "dB",
                   format: "%.2f", anchor: String(format: "after per-channel gain+gamma fit %.2f dB (dcraw uses its own tone and gamma; no lens opcodes)",
                                                  ImageQuality.cpsnr(fitted(theirs.image, to: recordedTruth), recordedTruth)))
        }
    }

    /// `image` mapped per channel through v ↦ a·v^g, with a and g fitted by least squares in the
    /// log domain to `reference` (pixels away from black and clipping, every 7th sampled).
    static func fitted(_ image: Raster<UInt8>, to reference: Raster<UInt8>) -> Raster<UInt8> {
        var out = image
        for c in 0..<3 {
            var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
            for i in stride(from: c, to: image.storage.count, by: 21) {
                let x = Double(image.storage[i]), y = Double(reference.storage[i])
                guard (8...247).contains(x), (8...247).contains(y) else { continue }
                let lx = log(x / 255), ly = log(y / 255)
                n += 1; sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly
            }
            guard n > 100, n * sxx - sx * sx > 0 else { continue }
            let g = (n * sxy - sx * sy) / (n * sxx - sx * sx), la = (sy - g * sx) / n
            let table = (0..<256).map { v in UInt8(min(255, max(0, (exp(la) * pow(Double(v) / 255, g) * 255).rounded()))) }
            for i in stride(from: c, to: out.storage.count, by: 3) { out.storage[i] = table[Int(image.storage[i])] }
        }
        return out
    }
}
