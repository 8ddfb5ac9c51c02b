import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// HEIC encode time, size and PSNR on a 12 MP frame of real content (Kodak images tiled, or a
/// procedural image without ../shared/data), beside `heif-enc` at the same x265 rate factor.
/// Hook: `if options.runs("heif") { try HEIFBenchmark.run(options) }` in BenchmarkMain.
enum HEIFBenchmark {
    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium"]

    static func run(_ options: BenchmarkOptions) throws {
        let image = try frame(options.dataDirectory)
        var settings = HEIFEncodingOptions()
        let chosen = settings.preset
        let libheifQuality = Int((100 - 2 * settings.constantRateFactor).rounded())
        print("# heif: 4032×3024, quality \(settings.quality) = x265 crf \(String(format: "%.1f", settings.constantRateFactor)) (heif-enc -q \(libheifQuality))")
        for preset in presets {
            settings.preset = preset
            var data = Data()
            let runs = preset == chosen ? options.repetitions : 1
            let cpuStart = cpuSeconds()
            let times = try (0..<runs).map { _ in try measure { data = try HEIFEncoder.encode(image, options: settings) }.1 }
            let cpu = (cpuSeconds() - cpuStart) / Double(runs)
            let psnr = try ImageQuality.cpsnr(image, HEIFDecoder.decode(data), border: 0)
            let mark = preset == chosen ? " (default)" : ""
            report("heif.12mp.\(preset).encode", median(times) * 1000, "ms\(mark)", format: "%.0f",
                   anchor: preset == chosen ? "target ≤ 1500 ms on 2 cores" : nil)
            report("heif.12mp.\(preset).cpu", cpu * 1000, "ms", format: "%.0f", anchor: "user+system time of all threads")
            report("heif.12mp.\(preset).size", Double(data.count) / 1e6, "MB", format: "%.2f")
            report("heif.12mp.\(preset).psnr", psnr, "dB", format: "%.2f")
        }
        settings.preset = chosen
        for quality in [0.5, 0.7, 0.8, 0.95, 1.0] {
            settings.quality = quality
            let data = try HEIFEncoder.encode(image, options: settings)
            let name = "heif.12mp.q\(Int(quality * 100))"
            report("\(name).size", Double(data.count) / 1e6, "MB", format: "%.2f", anchor: String(format: "crf %.1f", settings.constantRateFactor))
            report("\(name).psnr", try ImageQuality.cpsnr(image, HEIFDecoder.decode(data), border: 0), "dB", format: "%.2f")
        }
        let jpeg = try JPEGEncoder.encode(image, quality: 90)
        report("jpeg.12mp.q90.size", Double(jpeg.count) / 1e6, "MB", format: "%.2f", anchor: "same frame, for scale")
        report("jpeg.12mp.q90.psnr", try ImageQuality.cpsnr(image, JPEGDecoder.decode(jpeg), border: 0), "dB", format: "%.2f")

        guard let heifEnc = ExternalTool.find("heif-enc") else {
            print("heif-enc: skipped (not installed; apt-get install libheif-examples)")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-heif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("frame.png")
        try PNGCodec.encode(image).write(to: png)
        for (name, extra) in [("default", [String]()), ("ultrafast", ["-p", "preset=ultrafast"])] {
            let out = dir.appendingPathComponent("\(name).heic")
            let time = try measure { try ExternalTool.runChecked(heifEnc, ["-q", "\(libheifQuality)"] + extra + ["-o", out.path, png.path]) }.1
            let data = try Data(contentsOf: out)
            report("heif-enc.12mp.\(name).encode", time * 1000, "ms", format: "%.0f", anchor: "includes PNG decode")
            report("heif-enc.12mp.\(name).size", Double(data.count) / 1e6, "MB", format: "%.2f")
            report("heif-enc.12mp.\(name).psnr", try ImageQuality.cpsnr(image, HEIFDecoder.decode(data), border: 0), "dB", format: "%.2f")
        }
    }

    /// 4032×3024 RGB: 500×500 crops of the Kodak images side by side, or a procedural scene.
    static func frame(_ dataDirectory: String?) throws -> Raster<UInt8> {
        let (width, height, block) = (4032, 3024, 500)
        var out = Raster<UInt8>(width: width, height: height, channels: 3)
        let folder = dataDirectory.map { URL(fileURLWithPath: $0).appendingPathComponent("demosaic/kodak24") }
        let names = folder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) }?
            .filter { $0.hasSuffix(".png") }.sorted() ?? []
        if let folder, !names.isEmpty {
            let sources = try names.map { try PNGCodec.decode(Data(contentsOf: folder.appendingPathComponent($0))) }
            for y in 0..<height {
                for x in 0..<width {
                    let k = (y / block) * ((width + block - 1) / block) + x / block
                    let s = sources[k % sources.count]
                    let sx = min(x % block, s.width - 1), sy = min(y % block, s.height - 1)
                    for c in 0..<3 { out[x, y, c] = s[sx, sy, min(c, s.channels - 1)] }
                }
            }
            return out
        }
        print("# heif: no Kodak images; procedural frame")
        var seed: UInt64 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let noise = Double(seed >> 59) - 16
                let u = Double(x) / Double(width), v = Double(y) / Double(height)
                let rgb = [128 + 100 * sin(9 * u + 3 * sin(7 * v)), 128 + 100 * cos(11 * v - 5 * u * u), 128 + 90 * sin(40 * u * v)]
                for c in 0..<3 { out[x, y, c] = UInt8(clamping: Int((rgb[c] + noise).rounded())) }
            }
        }
        return out
    }

    /// User + system CPU seconds of this process so far.
    static func cpuSeconds() -> Double {
        Double(clock()) / Double(CLOCKS_PER_SEC)
    }
}
