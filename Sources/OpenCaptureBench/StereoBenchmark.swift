import Foundation
import CaptureCore
import MediaFormats

/// Stereo depth as a user meets it: `opencapture depth` on the Middlebury Aloe pair (Debian
/// `opencv-doc`), timed from process start to PFM on disk with its peak memory, beside the anchor
/// of ANCHORS.md §3 (OpenCV StereoSGBM, minDisparity 32, numDisparities 192, blockSize 5, P1 200,
/// P2 800, uniqueness 10, speckle 100/2) run the same way through a small python3-opencv script, in
/// the same run. Both maps are scored against aloeGT.png (8-bit disparity at the images' own scale,
/// 0 = unknown): bad-2.0 over all known ground-truth pixels (holes count as bad) and over matched
/// ones, end-point error, density. Median of up to three runs (`--runs`).
enum StereoBenchmark {
    static let folders = ["/usr/share/doc/opencv-doc/examples/data", "/usr/share/opencv4/samples/data"]

    static let sgbmScript = """
        import sys, time, cv2, numpy as np
        l = cv2.imread(sys.argv[1], cv2.IMREAD_GRAYSCALE); r = cv2.imread(sys.argv[2], cv2.IMREAD_GRAYSCALE)
        s = cv2.StereoSGBM_create(minDisparity=32, numDisparities=192, blockSize=5, P1=200, P2=800,
                                  uniquenessRatio=10, speckleWindowSize=100, speckleRange=2)
        t = time.perf_counter(); d = s.compute(l, r).astype(np.float32) / 16; t = time.perf_counter() - t
        d[d < 32] = np.inf
        h, w = d.shape
        with open(sys.argv[3], 'wb') as f:
            f.write(b'Pf\\n%d %d\\n-1.0\\n' % (w, h)); f.write(d[::-1].astype('<f4').tobytes())
        print('inner matcher time: %.3f s' % t)
        """

    static func run(_ options: BenchmarkOptions) throws {
        guard let folder = folders.first(where: { FileManager.default.fileExists(atPath: $0 + "/aloeGT.png") }) else {
            print("stereo: skipped (apt-get install opencv-doc for the Middlebury Aloe pair)")
            return
        }
        guard let cli = EndToEndBenchmark.findCLI() else {
            print("stereo: skipped (build the command first: swift build -c release --product opencapture)")
            return
        }
        let left = folder + "/aloeL.jpg", right = folder + "/aloeR.jpg"
        let truth = try PNGCodec.decode(Data(contentsOf: URL(fileURLWithPath: folder + "/aloeGT.png")))
        let runs = max(1, min(options.repetitions, 3))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-stereo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        print("# stereo: Middlebury Aloe \(truth.width)×\(truth.height), disparities 32…224, median of \(runs); "
              + "time = process start → PFM written; peak = child's max RSS; inner = the matcher call alone")

        func measure(_ name: String, _ program: String, _ arguments: [String], output: URL, anchor: String) throws {
            var results: [ChildProcess] = [], inner: [Double] = []
            for run in 0..<runs {
                let log = root.appendingPathComponent("\(name)-\(run).txt")
                let result = ChildProcess.run(program, arguments, standardOutput: log.path)
                guard result.status == 0, FileManager.default.fileExists(atPath: output.path) else {
                    throw BenchmarkError(description: "stereo.\(name): exit status \(result.status), no PFM")
                }
                results.append(result)
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("inner matcher time:") }),
                   let value = Double(line.split(separator: " ")[3]) { inner.append(value) }
            }
            report("stereo.\(name).time", median(results.map(\.seconds)), "s", format: "%.2f", anchor: anchor)
            report("stereo.\(name).cpu", median(results.map(\.cpuSeconds)), "s", format: "%.2f", anchor: "user + sys of the process")
            report("stereo.\(name).peak_rss", median(results.map(\.peakMB)), "MB", format: "%.0f")
            if !inner.isEmpty { report("stereo.\(name).inner_time", median(inner), "s", format: "%.2f", anchor: "inner: the matcher call only") }
            let score = try Self.score(PFMCodec.decode(Data(contentsOf: output)), truth: truth)
            report("stereo.\(name).bad2_all", score.badAll, "%", format: "%.2f", anchor: "|d − gt| > 2 px or no value, over all known GT pixels")
            report("stereo.\(name).bad2_matched", score.badMatched, "%", format: "%.2f", anchor: "over GT pixels with a value")
            report("stereo.\(name).epe_matched", score.epe, "px", format: "%.3f")
            report("stereo.\(name).density", score.density, "%", format: "%.1f", anchor: "GT pixels with a value")
        }

        // Both programs share the machine with whatever else runs: the 1-minute load before and after
        // says how far the times can be compared with another run's.
        if let load = Self.loadAverage() { report("stereo.load_before", load, "", format: "%.2f", anchor: "1-minute load average") }
        defer { if let load = Self.loadAverage() { report("stereo.load_after", load, "", format: "%.2f", anchor: "1-minute load average") } }

        let ours = root.appendingPathComponent("opencapture.pfm")
        try measure("opencapture", cli, ["depth", left, right, "--min-disparity", "32", "--max-disparity", "224",
                                         "-o", ours.path, "--timing", "--overwrite"], output: ours,
                    anchor: "opencapture depth aloeL.jpg aloeR.jpg --min-disparity 32 --max-disparity 224 -o out.pfm")

        guard let python = ExternalTool.find("python3"), ExternalTool.run(python, ["-c", "import cv2"]).status == 0 else {
            print("stereo.anchor.sgbm: skipped (apt-get install python3-opencv)")
            return
        }
        let script = root.appendingPathComponent("sgbm.py")
        try Data(sgbmScript.utf8).write(to: script)
        let sgbm = root.appendingPathComponent("sgbm.pfm")
        try measure("anchor.sgbm", python, [script.path, left, right, sgbm.path], output: sgbm,
                    anchor: "OpenCV StereoSGBM (ANCHORS §3 parameters) via python3, same files")
    }

    /// The 1-minute load average (Linux), nil where /proc/loadavg is missing.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// Scores a disparity map (non-finite = no value) against 8-bit ground truth (0 = unknown).
    static func score(_ map: Raster<Float>, truth: Raster<UInt8>) throws
        -> (badAll: Double, badMatched: Double, epe: Double, density: Double) {
        guard map.width == truth.width, map.height == truth.height else {
            throw BenchmarkError(description: "stereo: map \(map.width)×\(map.height), ground truth \(truth.width)×\(truth.height)")
        }
        var known = 0, matched = 0, badMatched = 0, errorSum = 0.0
        for p in 0..<(map.width * map.height) {
            let gt = truth.storage[p * truth.channels]
            guard gt > 0 else { continue }
            known += 1
            let d = map.storage[p]
            guard d.isFinite else { continue }
            matched += 1
            let error = abs(Double(d) - Double(gt))
            errorSum += error
            if error > 2 { badMatched += 1 }
        }
        let bad = Double(badMatched + known - matched)
        return (100 * bad / Double(max(1, known)), 100 * Double(badMatched) / Double(max(1, matched)),
                errorSum / Double(max(1, matched)), 100 * Double(matched) / Double(max(1, known)))
    }
}
