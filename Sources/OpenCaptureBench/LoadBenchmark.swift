import Foundation
import OpenCapture

/// 64 captures in flight at once, submitted from 8 threads × 8 through the public API, one shared
/// delegate: every request must complete exactly once with its five callbacks in Apple's order
/// (willBegin → willCapture → didCapture → didFinishProcessing → didFinishCapture), nothing lost or
/// doubled, and each thread's requests delivered in the order that thread submitted them.
enum LoadBenchmark {
    static let threads = 8
    static let perThread = 8

    static func run(_ options: BenchmarkOptions) throws {
        let rig = try CaptureRig(preset: CaptureRig.preset(named: options.capturePreset) ?? .hd1280x720, seed: 7)
        defer { rig.session.stopRunning() }
        let label = "load.\(threads)x\(perThread).\(rig.dimensions)"
        let recorder = CallbackRecorder()
        // Warm the output once so the figure is about load, not the first scene render.
        rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: recorder)
        recorder.finished.wait()
        let warmID = recorder.log.first?.id

        let peakReset = ResidentMemory.resetPeak()
        let submitted = SubmissionLog(threads: threads)
        let start = DispatchTime.now().uptimeNanoseconds
        let go = DispatchGroup()
        for t in 0..<threads {
            go.enter()
            Thread {
                for _ in 0..<perThread {
                    let settings = AVCapturePhotoSettings()
                    submitted.append(settings.uniqueID, thread: t)   // before the call: it is this thread's next request
                    rig.output.capturePhoto(with: settings, delegate: recorder)
                }
                go.leave()
            }.start()
        }
        go.wait()
        let total = threads * perThread
        var timedOut = false
        for _ in 0..<total where recorder.finished.wait(timeout: .now() + 300) == .timedOut { timedOut = true; break }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Let any stray (doubled) callback arrive before checking.
        Thread.sleep(forTimeInterval: 0.5)

        let log = recorder.log.filter { $0.id != warmID }
        let problems = check(log, submitted: submitted.perThread, timedOut: timedOut) + recorder.reportedErrors
        let completed = Set(log.filter { $0.kind == .didFinishCapture }.map(\.id)).count
        report("\(label).completed", Double(completed), "of \(total)", format: "%.0f",
               anchor: "each exactly once, five callbacks in Apple's order, per-thread submission order")
        report("\(label).violations", Double(problems.count), "", format: "%.0f", anchor: "target 0")
        for problem in problems.prefix(10) { print("  violation: \(problem)") }
        report("\(label).time", seconds, "s", format: "%.2f", anchor: "first submission → last didFinishCapture")
        report("\(label).per_capture", seconds / Double(total) * 1000, "ms", format: "%.0f", anchor: "throughput with 64 queued")
        report("\(label).rss.peak", ResidentMemory.peak ?? 0, "MB",
               anchor: peakReset ? "VmHWM, reset before the load" : "VmHWM since process start (reset refused)")
        report("\(label).rss.end", ResidentMemory.current ?? 0, "MB", anchor: "VmRSS after all delivered")
        report("\(label).rss.end_after_trim", ResidentMemory.currentAfterTrim ?? 0, "MB",
               anchor: "the same after malloc_trim(0): memory still referenced")
    }

    /// Every way the callback log can break the contract.
    static func check(_ log: [(id: Int64, kind: CallbackRecorder.Kind)], submitted: [[Int64]], timedOut: Bool) -> [String] {
        var problems: [String] = []
        if timedOut { problems.append("not every request finished within 300 s") }
        let expected = Set(submitted.joined())
        var positions: [Int64: [CallbackRecorder.Kind: [Int]]] = [:]
        for (index, event) in log.enumerated() {
            if !expected.contains(event.id) { problems.append("callback for unknown request \(event.id)") }
            positions[event.id, default: [:]][event.kind, default: []].append(index)
        }
        for id in expected.sorted() {
            let seen = positions[id] ?? [:]
            for kind in CallbackRecorder.Kind.allCases where seen[kind]?.count != 1 {
                problems.append("request \(id): \(kind) delivered \(seen[kind]?.count ?? 0) times")
            }
            let order = CallbackRecorder.Kind.allCases.compactMap { seen[$0]?.first }
            if order.count == 5 && order != order.sorted() {
                problems.append("request \(id): callbacks out of Apple's order")
            }
        }
        for (thread, ids) in submitted.enumerated() {
            for kind in [CallbackRecorder.Kind.willBegin, .didFinishCapture] {
                let firsts = ids.compactMap { positions[$0]?[kind]?.first }
                if firsts.count == ids.count && firsts != firsts.sorted() {
                    problems.append("thread \(thread): \(kind) not in submission order \(ids)")
                }
            }
        }
        return problems
    }
}

/// The uniqueIDs each submitting thread sent, in its order. `@unchecked Sendable`: `lock` guards `ids`.
final class SubmissionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [[Int64]]

    init(threads: Int) { ids = Array(repeating: [], count: threads) }

    func append(_ id: Int64, thread: Int) { lock.withLock { ids[thread].append(id) } }

    var perThread: [[Int64]] { lock.withLock { ids } }
}
