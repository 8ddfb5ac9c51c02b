import Foundation
import ImagePipeline
import MediaFormats

/// Headline figures as a user meets them: the built `opencapture` command timed from process start
/// to file on disk, with the process's peak memory, beside the reference tools run on the same
/// files in the same run (`cjpeg`, `heif-enc`, `enfuse`, `dcraw_emu -T`); tools that are not
/// installed are skipped. Each figure is the median of up to three runs (`--runs`).
enum EndToEndBenchmark {
    static func run(_ options: BenchmarkOptions) throws {
        guard let cli = findCLI() else {
            print("e2e: skipped (build the command first: swift build -c release --product opencapture)")
            return
        }
        var runs = max(1, min(options.repetitions, 3))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        print("# e2e: \(cli), median of \(runs); time = process start → exit with the file written; peak = child's max RSS")

        var medianTimes: [String: Double] = [:]
        /// Runs `arguments` `runs` times, each into a fresh folder; reports time and peak; returns the last folder.
        func timeCommand(_ name: String, program: String, _ arguments: (URL) -> [String], stdout: ((URL) -> String)? = nil,
                         expect suffix: String, anchor: String) throws -> URL {
            var results: [ChildProcess] = []
            var folder = root
            for run in 0..<runs {
                folder = root.appendingPathComponent("\(name)-\(run)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                // (Its standard error beside the folder, not in it: some runs look for the only file of a kind there.)
                let errors = root.appendingPathComponent("\(name)-\(run).stderr.txt")
                let result = ChildProcess.run(program, arguments(folder), standardOutput: stdout?(folder), standardError: errors.path)
                guard result.status == 0 else {
                    let said = (try? String(contentsOf: errors, encoding: .utf8))?.split(separator: "\n").suffix(5).joined(separator: " | ") ?? ""
                    throw BenchmarkError(description: "\(name): exit status \(result.status): \(said)")
                }
                guard files(in: folder, suffix: suffix).first != nil else {
                    throw BenchmarkError(description: "\(name): no *\(suffix) written")
                }
                results.append(result)
            }
            let time = median(results.map(\.seconds)), peak = median(results.map(\.peakMB))
            medianTimes[name] = time
            report("e2e.\(name).time", time, "s", format: "%.2f", anchor: anchor)
            // The spread beside the median: a 0.1 s command swings by half its time between minutes on this machine.
            let times = results.map(\.seconds), cpu = results.map(\.cpuSeconds)
            let spread = times.count > 1
                ? String(format: "; runs %.2f–%.2f s, CPU %.2f–%.2f s", times.min()!, times.max()!, cpu.min()!, cpu.max()!) : ""
            report("e2e.\(name).peak_rss", peak, "MB", format: "%.0f",
                   anchor: String(format: "CPU %.2f s (user+sys)", median(cpu)) + spread)
            return folder
        }

        _ = try timeCommand("startup", program: cli, { _ in ["--help"] }, stdout: { $0.appendingPathComponent("help.txt").path },
                            expect: ".txt", anchor: "opencapture --help: process start cost")

        // shoot: the first photo after startRunning, 12 MP JPEG and HEIC. The children keep their renders in a
        // folder of this run: the first shoot meets it empty (a new machine or build), the rest find what earlier
        // processes rendered (what every later `opencapture shoot` gets).
        let renderCache = root.appendingPathComponent("render-cache").path
        let previousCache = ProcessInfo.processInfo.environment["OPENCAPTURE_RENDER_CACHE"]
        setenv("OPENCAPTURE_RENDER_CACHE", renderCache, 1)
        defer {
            if let previousCache { setenv("OPENCAPTURE_RENDER_CACHE", previousCache, 1) } else { unsetenv("OPENCAPTURE_RENDER_CACHE") }
        }
        let coldRuns = runs
        runs = 1
        _ = try timeCommand("shoot.jpeg_12mp.first_render", program: cli, { ["shoot", "-o", $0.path] }, expect: ".jpg",
                            anchor: "new machine or build: startRunning → first 12 MP JPEG, rendering the scene")
        runs = coldRuns
        let jpegFolder = try timeCommand("shoot.jpeg_12mp", program: cli, { ["shoot", "-o", $0.path] }, expect: ".jpg",
                                         anchor: "new process, startRunning → first 12 MP JPEG on disk (render cached)")
        let jpeg = files(in: jpegFolder, suffix: ".jpg")[0]
        let heicFolder = try timeCommand("shoot.heic_12mp", program: cli, { ["shoot", "--format", "heic", "-o", $0.path] },
                                         expect: ".heic", anchor: "startRunning → first 12 MP HEIC on disk")
        _ = heicFolder
        // The living camera: a Live Photo (the viewfinder starts, 1.6 s of frames are kept, the 1.5 s post-roll runs)
        // and a 3 s 1080p30 recording with the microphone, each from process start to the files on disk.
        _ = try timeCommand("live.heic_12mp", program: cli, { ["live", "-o", $0.path] }, expect: ".mov",
                            anchor: "new process → Live Photo (12 MP HEIC + 3 s H.264/AAC movie); 3.1 s of it is waiting for time to pass")
        _ = try timeCommand("record.1080p30_3s", program: cli,
                            { ["record", "--preset", "high", "--duration", "3", "-o", $0.appendingPathComponent("clip.mov").path] },
                            expect: ".mov", anchor: "new process → 3 s of 1080p30 H.264 + AAC on disk (recording runs in real time)")
        // shoot with depth: a 12 MP telephoto HEIC without depth, and the dual camera's (its telephoto's photo) with
        // embedded depth (+ its PFM and PNG).
        _ = try timeCommand("shoot.tele_heic_12mp", program: cli, { ["shoot", "--device", "tele", "--format", "heic", "-o", $0.path] },
                            expect: ".heic", anchor: "telephoto camera, startRunning → first 12 MP HEIC on disk, no depth")
        let dual = try timeCommand("shoot.dual_depth_heic_12mp", program: cli,
                                   { ["shoot", "--device", "dual", "--depth", "--format", "heic", "-o", $0.path] }, expect: ".pfm",
                                   anchor: "the same with 768×576 stereo depth embedded, plus depth.pfm and depth.png")
        // Synthetic depth of field from that photo's depth (decode, blur, encode).
        if let photo = files(in: dual, suffix: ".heic").first {
            _ = try timeCommand("portrait.f2_12mp", program: cli,
                                { ["portrait", photo.path, "--aperture", "2", "-o", $0.appendingPathComponent("bokeh.jpg").path] },
                                expect: ".jpg", anchor: "new process → the dual camera's 12 MP HEIC re-blurred at f/2 → JPEG")
        }

        // Anchors on the same pixels: the JPEG decoded once (untimed) to PPM for cjpeg.
        if let cjpeg = ExternalTool.find("cjpeg"), let djpeg = ExternalTool.find("djpeg") {
            let ppm = root.appendingPathComponent("photo.ppm").path
            _ = ChildProcess.run(djpeg, ["-ppm", jpeg.path], standardOutput: ppm)
            _ = try timeCommand("anchor.cjpeg_q90", program: cjpeg, { _ in ["-quality", "90", ppm] },
                                stdout: { $0.appendingPathComponent("cjpeg.jpg").path }, expect: ".jpg",
                                anchor: "libjpeg-turbo cjpeg, same 12 MP pixels from PPM: encode only, no capture")
        } else {
            print("e2e.anchor.cjpeg_q90: skipped (apt-get install libjpeg-turbo-progs)")
        }
        if let heifEnc = ExternalTool.find("heif-enc") {
            let q = Int((100 - 2 * HEIFEncodingOptions().constantRateFactor).rounded())
            _ = try timeCommand("anchor.heif-enc", program: heifEnc, { ["-q", "\(q)", "-o", $0.appendingPathComponent("h.heic").path, jpeg.path] },
                                expect: ".heic", anchor: "libheif heif-enc -q \(q) (same x265 crf) from the JPEG: decode + encode, no capture")
        } else {
            print("e2e.anchor.heif-enc: skipped (apt-get install libheif-examples)")
        }

        // develop a DNG the command itself shot (untimed), and dcraw_emu -T on the same file.
        let rawFolder = root.appendingPathComponent("raw")
        try FileManager.default.createDirectory(at: rawFolder, withIntermediateDirectories: true)
        let shot = ChildProcess.run(cli, ["shoot", "--raw", "--format", "none", "-o", rawFolder.path])
        guard shot.status == 0, let dng = files(in: rawFolder, suffix: ".dng").first else {
            throw BenchmarkError(description: "shoot --raw wrote no DNG (status \(shot.status))")
        }
        _ = try timeCommand("develop.dng_to_tiff", program: cli, { ["develop", dng.path, "--format", "tiff", "-o", $0.path] },
                            expect: ".tif", anchor: "12 MP DNG → 8-bit TIFF on disk")
        if let dcraw = ExternalTool.find("dcraw_emu") {
            _ = try timeCommand("anchor.dcraw_emu_T", program: dcraw, { folder in
                let copy = folder.appendingPathComponent(dng.lastPathComponent)
                try? FileManager.default.copyItem(at: dng, to: copy)
                return ["-T", copy.path]
            }, expect: ".tiff", anchor: "LibRaw dcraw_emu -T (AHD, 8-bit TIFF) on the same DNG")
        } else {
            print("e2e.anchor.dcraw_emu_T: skipped (apt-get install libraw-bin)")
        }
        // develop a DNG another writer made from photographs (PiDNG, 12 MP of tiled Kodak crops; no lens opcodes, no
        // headroom), against dcraw_emu's AHD, DHT and AAHD on the same file, with each result's CPSNR against the
        // photograph after a per-channel gain + gamma fit (each tool's tone curve removed).
        if let data = options.dataDirectory {
            switch ThirdPartyDevelopBenchmark.makeDNGs(data: data, folder: root.appendingPathComponent("pidng"), large: true) {
            case .success(let made) where made.count == 1:
                let dng = URL(fileURLWithPath: made[0].dng)
                let reference = try PNGCodec.decode(Data(contentsOf: URL(fileURLWithPath: made[0].reference)))
                func score(_ tool: String, _ tiff: URL?) {
                    guard let tiff, let image = try? TIFFCodec.decode(Data(contentsOf: tiff)), image.size == reference.size else { return }
                    report("e2e.develop.third_party_12mp.\(tool).cpsnr",
                           ImageQuality.cpsnr(DevelopBenchmark.fitted(image, to: reference), reference, border: 10), "dB",
                           format: "%.2f", anchor: "against the photographs, after a per-channel gain + gamma fit")
                }
                let ours = try timeCommand("develop.third_party_12mp", program: cli, { ["develop", dng.path, "--format", "tiff", "-o", $0.path] },
                                           expect: ".tif", anchor: "PiDNG 12 MP DNG of photographs → 8-bit TIFF (residual interpolation)")
                score("opencapture", files(in: ours, suffix: ".tif").first)
                if let dcraw = ExternalTool.find("dcraw_emu") {
                    for (name, quality) in ThirdPartyDevelopBenchmark.libRawMethods {
                        let folder = try timeCommand("anchor.dcraw_emu_q\(quality)_third_party_12mp", program: dcraw, { folder in
                            let copy = folder.appendingPathComponent(dng.lastPathComponent)
                            try? FileManager.default.copyItem(at: dng, to: copy)
                            return ["-q", quality, "-w", "-o", "1", "-T", copy.path]
                        }, expect: ".tiff", anchor: "LibRaw dcraw_emu -q \(quality) (\(name.uppercased())) -T on the same DNG")
                        score("dcraw_emu_\(name)", files(in: folder, suffix: ".tiff").first)
                        if let ours = medianTimes["develop.third_party_12mp"], let theirs = medianTimes["anchor.dcraw_emu_q\(quality)_third_party_12mp"] {
                            report("e2e.develop.third_party_12mp.speedup_vs_\(name)", theirs / ours, "×", format: "%.1f",
                                   anchor: quality == "3" ? "target ≥ 4×" : "")
                        }
                    }
                }
            case .success: print("e2e.develop.third_party_12mp: skipped (the script wrote no file)")
            case .failure(let why): print("e2e.develop.third_party_12mp: skipped (\(why.description))")
            }
        }
        // (develop runs before the fusion rows: those decode three 12 MP images in this process, and a child spawned
        // afterwards would report this process's memory as its own peak.)

        // bracket --fuse, and enfuse on the bracket's own three JPEGs.
        let bracketFolder = try timeCommand("bracket.ev-2_0_2.fuse", program: cli,
                                            { ["bracket", "--ev=-2,0,2", "--fuse", "-o", $0.path] }, expect: ".jpg",
                                            anchor: "three 12 MP exposures, fused JPEG + HDR + tone-mapped on disk")
        // The same bracket with RAW: the raw frames merged, then developed (what shows the window's view).
        _ = try timeCommand("bracket.ev-2_0_2.raw.fuse", program: cli,
                            { ["bracket", "--ev=-2,0,2", "--raw", "--fuse", "-o", $0.path] }, expect: ".dng",
                            anchor: "three 12 MP RAW + JPEG exposures, raw-merged and developed JPEG + HDR + tone-mapped on disk")
        let shots = files(in: bracketFolder, suffix: ".jpg").filter { !$0.lastPathComponent.contains("fused") && !$0.lastPathComponent.contains("tone") }
        // fuse on the bracket's own three JPEGs (decode, align, deghost, fuse, encode, write), and enfuse on the same files.
        var ours: URL?
        if shots.count == 3 {
            let folder = try timeCommand("fuse.3x12mp_jpeg", program: cli, { ["fuse"] + shots.map(\.path) + ["-o", $0.appendingPathComponent("fused.jpg").path] },
                                         expect: ".jpg", anchor: "opencapture fuse a.jpg b.jpg c.jpg -o fused.jpg: decode, align (global + tiles), deghost, fuse, encode")
            ours = folder.appendingPathComponent("fused.jpg")
        }
        if let enfuse = ExternalTool.find("enfuse"), shots.count == 3 {
            let folder = try timeCommand("anchor.enfuse", program: enfuse,
                                         { ["--compression=90", "-o", $0.appendingPathComponent("enfused.jpg").path] + shots.map(\.path) },
                                         expect: ".jpg", anchor: "enfuse on the same three JPEGs: fusion only, no capture, no alignment")
            if let ours, let fuseTime = medianTimes["fuse.3x12mp_jpeg"], let enfuseTime = medianTimes["anchor.enfuse"] {
                report("e2e.fuse.3x12mp_jpeg.speedup_vs_enfuse", enfuseTime / fuseTime, "×", format: "%.1f", anchor: "target ≥ 5×")
                if let a = try? JPEGDecoder.decode(Data(contentsOf: ours)),
                   let b = try? JPEGDecoder.decode(Data(contentsOf: folder.appendingPathComponent("enfused.jpg"))), a.size == b.size {
                    report("e2e.fuse.3x12mp_jpeg.ssim_vs_enfuse", ImageQuality.ssim(a, b), "", format: "%.4f",
                           anchor: "both with enfuse's weights (exposure 1, saturation 0.2, contrast 0); ours aligned and deghosted, enfuse not; target ≥ 0.95")
                    // The fusion alone (untimed): ours without alignment and deghosting, against enfuse as it
                    // comes (it blends in a perceptual colour space when the files carry an ICC profile) and
                    // blending in the files' own encoding, as ours does.
                    let plain = root.appendingPathComponent("fused-plain.jpg")
                    _ = ChildProcess.run(cli, ["fuse", "--no-align", "--no-deghost", "--overwrite"] + shots.map(\.path) + ["-o", plain.path])
                    let identity = root.appendingPathComponent("enfused-identity.jpg")
                    _ = ChildProcess.run(enfuse, ["--compression=90", "--blend-colorspace=identity", "-o", identity.path] + shots.map(\.path))
                    if let p = try? JPEGDecoder.decode(Data(contentsOf: plain)), p.size == b.size {
                        report("e2e.fuse.3x12mp_jpeg.ssim_vs_enfuse.fusion_only", ImageQuality.ssim(p, b), "", format: "%.4f",
                               anchor: "opencapture fuse --no-align --no-deghost against enfuse's defaults")
                        if let c = try? JPEGDecoder.decode(Data(contentsOf: identity)), p.size == c.size {
                            report("e2e.fuse.3x12mp_jpeg.ssim_vs_enfuse.fusion_only_srgb_blend", ImageQuality.ssim(p, c), "", format: "%.4f",
                                   anchor: "the same against enfuse --blend-colorspace=identity")
                        }
                    }
                }
            }
        } else {
            print("e2e.anchor.enfuse: skipped (\(shots.count == 3 ? "apt-get install enfuse" : "bracket wrote \(shots.count) shots"))")
        }

    }

    /// Files in `folder` whose names end in `suffix`, sorted.
    static func files(in folder: URL, suffix: String) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.lowercased().hasSuffix(suffix) }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The `opencapture` executable built beside this benchmark, or on PATH.
    static func findCLI() -> String? {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("opencapture").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : ExternalTool.find("opencapture")
    }
}
