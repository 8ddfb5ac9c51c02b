import CaptureCore
import Foundation
import Fusion
import ImagePipeline
import MediaFormats

/// Exposure fusion of a 3 × 12 MP bracket (EV −2/0/+2 synthesised from one real 8-bit image: linearised
/// with sRGB, scaled ×0.25/×1/×4, re-encoded; ANCHORS §2), beside enfuse and OpenCV's MergeMertens when
/// they are installed (`apt-get install enfuse`, `pip install opencv-python-headless`), plus MTB alignment
/// and the HDR merge on the same frames.
enum FusionBenchmark {
    static let width = 4032, height = 3024

    static func run(_ options: BenchmarkOptions) throws {
        let base = baseImage(options)
        let bracket = makeBracket(base.image)
        let runs = max(1, options.repetitions)

        // OpenCapture.
        let fusion = ExposureFusion()
        var fused = Raster<UInt8>(width: 0, height: 0, channels: 3)
        var times: [Double] = []
        for _ in 0..<runs {
            let (result, t) = try measure { try fusion.fuse(bracket) }
            fused = result
            times.append(t)
        }
        let ours = median(times)

        // Anchors run on the same frames, from files.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-fusion-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = try bracket.enumerated().map { index, frame -> String in
            let path = folder.appendingPathComponent("ev\(index).tif").path
            try TIFFCodec.encode(frame).write(to: URL(fileURLWithPath: path))
            return path
        }
        var anchors: [String] = []
        var enfuse: (seconds: Double, ssim: Double)?
        if let program = ExternalTool.find("enfuse") {
            let output = folder.appendingPathComponent("enfuse.tif").path
            let (status, _, seconds) = ExternalTool.run(program, ["--exposure-weight=1", "--saturation-weight=1",
                                                            "--contrast-weight=1", "--compression=none", "-o", output] + inputs)
            if status == 0, let data = try? Data(contentsOf: URL(fileURLWithPath: output)),
               let result = try? TIFFCodec.decode(data), result.width == width, result.height == height {
                enfuse = (seconds, ImageQuality.ssim(fused, result))
                anchors.append(String(format: "enfuse %.2f s incl. file I/O", seconds))
            } else {
                anchors.append("enfuse failed (status \(status))")
            }
        } else {
            anchors.append("enfuse not installed")
        }
        var opencv: (mertens: Double, align: Double, debevec: Double, ssim: Double)?
        if let python = ExternalTool.find("python3"), ExternalTool.run(python, ["-c", "import cv2"]).status == 0 {
            let output = folder.appendingPathComponent("opencv.png").path
            let (status, text, _) = ExternalTool.run(python, ["-c", openCVScript, String(min(runs, 3)), output] + inputs)
            let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            if status == 0, numbers.count == 3, let data = try? Data(contentsOf: URL(fileURLWithPath: output)),
               let result = try? PNGCodec.decode(data) {
                opencv = (numbers[0], numbers[1], numbers[2], ImageQuality.ssim(fused, result))
                anchors.insert(String(format: "OpenCV MergeMertens %.2f s", numbers[0]), at: 0)
            } else {
                anchors.insert("OpenCV failed (status \(status))", at: 0)
            }
        } else {
            anchors.insert("OpenCV MergeMertens 2.86 s on ANCHORS' machine; cv2 not installed", at: 0)
        }

        print("# fusion: 3 × \(width)×\(height) bracket ×0.25/×1/×4 from \(base.source)")
        report("fusion.3x12mp.mertens", ours, "s", format: "%.2f", anchor: anchors.joined(separator: ", "))
        if let opencv {
            report("fusion.3x12mp.mertens.speedup_vs_opencv", opencv.mertens / ours, "×", format: "%.1f",
                   anchor: "target ≥ 3.6× (0.8 s vs 2.86 s)")
            report("fusion.3x12mp.mertens.ssim_vs_opencv", opencv.ssim, "", format: "%.4f", anchor: "same weights (1, 1, 1)")
        }
        if let enfuse {
            report("fusion.3x12mp.mertens.ssim_vs_enfuse", enfuse.ssim, "", format: "%.4f",
                   anchor: String(format: "enfuse --exposure/saturation/contrast-weight=1, %.2f s", enfuse.seconds))
        }

        // Inner stages of the fuse command beside the core (not end to end: see the e2e group's fuse row).
        let (_, tileTime) = try measure {
            var frames = bracket
            try TileAlignment().align(&frames, reference: 1, initialShifts: [(0, 0), (0, 0), (0, 0)])
        }
        report("fusion.3x12mp.align_tiles", tileTime, "s", format: "%.2f", anchor: "inner stage: tile alignment of two frames (estimate + resample)")
        let (_, deghostedTime) = try measure { try fusion.fuse(bracket, deghostingAgainst: 1) }
        report("fusion.3x12mp.mertens_deghosted", deghostedTime, "s", format: "%.2f", anchor: "inner stage: ghost detection + Mertens core")
        try ghost(base.image)

        let (_, alignTime) = try measure { try ExposureAlignment().estimateShifts(bracket, reference: 1) }
        report("fusion.3x12mp.align_mtb", alignTime, "s", format: "%.2f",
               anchor: opencv.map { String(format: "OpenCV AlignMTB shifts %.2f s", $0.align) } ?? "OpenCV AlignMTB 0.65 s (ANCHORS)")
        let (_, mergeTime) = try measure { try HDRMerge().merge(bracket, exposures: [0.25, 1, 4]) }
        report("fusion.3x12mp.hdr_merge", mergeTime, "s", format: "%.2f",
               anchor: opencv.map { String(format: "OpenCV MergeDebevec %.2f s", $0.debevec) } ?? "OpenCV MergeDebevec 1.57 s (ANCHORS)")
    }

    /// Times MergeMertens(1, 1, 1) (median of argv[1] runs), AlignMTB (grey conversion and two `calculateShift`s,
    /// the work of `estimateShifts`) and MergeDebevec (linear response) once;
    /// writes the Mertens result as 8-bit PNG to argv[2]; prints the three times.
    static let openCVScript = """
        import sys, time, cv2, numpy as np
        runs, out, paths = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
        imgs = [cv2.imread(p) for p in paths]
        m = cv2.createMergeMertens(1, 1, 1)
        ts = []
        for _ in range(runs):
            t = time.perf_counter(); r = m.process(imgs); ts.append(time.perf_counter() - t)
        cv2.imwrite(out, np.clip(r * 255 + 0.5, 0, 255).astype(np.uint8))
        t = time.perf_counter(); a = cv2.createAlignMTB(); g = [cv2.cvtColor(i, cv2.COLOR_BGR2GRAY) for i in imgs]
        a.calculateShift(g[1], g[0]); a.calculateShift(g[1], g[2]); ta = time.perf_counter() - t
        resp = np.tile(np.linspace(0, 1, 256, dtype=np.float32).reshape(256, 1, 1), (1, 1, 3))
        times = np.array([0.25, 1, 4], dtype=np.float32)
        t = time.perf_counter(); cv2.createMergeDebevec().process(imgs, times, resp); td = time.perf_counter() - t
        print(sorted(ts)[len(ts) // 2], ta, td)
        """

    /// The source image: Kodak24 tiles to 4032×3024 when the data is present, else a procedural scene.
    static func baseImage(_ options: BenchmarkOptions) -> (image: Raster<UInt8>, source: String) {
        var tiles: [Raster<UInt8>] = []
        if let root = options.dataDirectory {
            let folder = URL(fileURLWithPath: root).appendingPathComponent("demosaic/kodak24")
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
            tiles = names.compactMap { name in
                (try? Data(contentsOf: folder.appendingPathComponent(name))).flatMap { try? PNGCodec.decode($0) }
            }.filter { $0.channels == 3 }
        }
        var image = Raster<UInt8>(width: width, height: height, channels: 3)
        if tiles.isEmpty {
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x) / Double(width), v = Double(y) / Double(height)
                    let detail = 0.5 + 0.5 * sin(Double(x) * 0.21) * sin(Double(y) * 0.17)
                    let rgb = [u, v, 0.5 + 0.5 * sin(9 * u + 5 * v)].map { 0.15 + 0.7 * (0.7 * $0 + 0.3 * detail) }
                    for c in 0..<3 { image[x, y, c] = UInt8(255 * rgb[c]) }
                }
            }
            return (image, "a procedural scene")
        }
        var index = 0, y0 = 0
        while y0 < height {
            var x0 = 0, rowHeight = 0
            while x0 < width {
                let tile = tiles[index % tiles.count]
                index += 1
                let w = min(tile.width, width - x0), h = min(tile.height, height - y0)
                for y in 0..<h {
                    let src = y * tile.rowStride, dst = ((y0 + y) * width + x0) * 3
                    image.storage.replaceSubrange(dst..<(dst + 3 * w), with: tile.storage[src..<(src + 3 * w)])
                }
                x0 += w
                rowHeight = max(rowHeight, h)
            }
            y0 += rowHeight
        }
        return (image, "Kodak24 tiles")
    }

    /// The ghost of a moving object: a 480-pixel dark blue square stands at a different place in each frame
    /// of the −2/0/+2 bracket. Ghost = mean absolute error (8-bit levels) over the squares where the
    /// non-reference frames saw it, against the same fusion of a still bracket (the object where the
    /// reference saw it in every frame): plainly, and deghosted with the same per-frame weights on both.
    static func ghost(_ image: Raster<UInt8>) throws {
        let side = 480, positions = [(1900, 700), (700, 1300), (2900, 1900)]
        func bracket(moving: Bool) -> [Raster<UInt8>] {
            var frames = makeBracket(image)
            for k in frames.indices {
                let (ox, oy) = positions[moving ? k : 1], gain = [0.25, 1.0, 4.0][k]
                let colour = [0.02, 0.03, 0.09].map { UInt8((SRGBTransfer.encode(Float($0 * gain)) * 255).rounded()) }
                for y in oy..<(oy + side) { for x in ox..<(ox + side) { for c in 0..<3 { frames[k][x, y, c] = colour[c] } } }
            }
            return frames
        }
        func error(_ a: Raster<UInt8>, _ b: Raster<UInt8>) -> Double {
            var total = 0.0, n = 0.0
            for k in [0, 2] {
                let (ox, oy) = positions[k]
                for y in oy..<(oy + side) { for i in (ox * 3)..<((ox + side) * 3) {
                    total += abs(Double(a.storage[y * a.width * 3 + i]) - Double(b.storage[y * b.width * 3 + i])); n += 1
                } }
            }
            return total / n
        }
        let still = bracket(moving: false), moving = bracket(moving: true)
        let fusion = ExposureFusion()
        let plain = error(try fusion.fuse(moving), try fusion.fuse(still))
        let weights = GhostDetector().consistency(moving, reference: 1)
        let deghosted = error(try fusion.fuse(moving, deghostingAgainst: 1), try fusion.fuse(still, consistency: weights))
        report("fusion.ghost.without_deghosting", plain, "levels", format: "%.2f",
               anchor: "moving 480 px square, mean |error| where the other frames saw it")
        report("fusion.ghost.deghosted", deghosted, "levels", format: "%.2f", anchor: "same, with ghost rejection (target ≈ 0)")
    }

    /// EV −2/0/+2: linearise with sRGB, scale ×0.25/×1/×4, re-encode (clipped).
    static func makeBracket(_ image: Raster<UInt8>) -> [Raster<UInt8>] {
        [0.25, 1, 4].map { gain in
            let table = (0..<256).map { v in
                UInt8((SRGBTransfer.encode(SRGBTransfer.decodeTable8[v] * Float(gain)) * 255).rounded())
            }
            return Raster(width: image.width, height: image.height, channels: 3, storage: image.storage.map { table[Int($0)] })
        }
    }
}
