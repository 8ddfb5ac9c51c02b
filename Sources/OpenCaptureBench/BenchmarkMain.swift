import CameraSimulation
import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import OpenCapture

/// `opencapture-bench`: release-build figures for the capture path, printed one `name: value unit`
/// line each, beside the anchors from shared/reference/ANCHORS.md.
///
/// Usage: opencapture-bench [--data DIR] [--only NAME[,NAME…]] [--runs N] [--captures N] [--preset P]
@main
struct BenchmarkMain {
    static func main() async {
        // A failure in one line, not a trap (`report` flushes each figure as it is made, so those before it stay).
        do {
            try await runAll()
        } catch {
            FileHandle.standardError.write(Data("opencapture-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func runAll() async throws {
        var options = BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        if options.showHelp {
            print("usage: opencapture-bench [--data DIR] [--only capture,bracket,sensor,isp,jpeg,demosaic,fusion,develop,heif,library,truedepth,depth,soak,load,e2e,stereo,stream] [--runs N] [--captures N] [--preset vga|hd720|hd1080|photo]")
            print("  soak, load, e2e, stereo and stream run only when named in --only (they take minutes); --captures sets the soak's count (1000)")
            return
        }
        options.dataDirectory = options.dataDirectory ?? BenchmarkOptions.findSharedData()
        // In-process figures render the scene themselves (no render cache from earlier processes) unless asked
        // otherwise; the e2e group gives its child processes a cache of their own.
        setenv("OPENCAPTURE_RENDER_CACHE", "off", 0)
        print("# OpenCapture benchmarks — release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("# figure: value unit    [anchor]")
        // Child processes first, while this process is small: Linux reports a spawned child's peak memory as at
        // least what its parent held when it spawned it.
        if options.named("e2e") { try EndToEndBenchmark.run(options) }
        if options.named("stereo") { try StereoBenchmark.run(options) }
        if options.runs("capture") { try await CaptureBenchmark.run(options) }
        if options.runs("bracket") {
            try await PreparedBracketBenchmark.run(options)
            try await WindowRecoveryBenchmark.run(options)
        }
        if options.runs("sensor") { SensorBenchmark.run(options) }
        if options.runs("isp") { ISPBenchmark.run(options) }
        if options.runs("jpeg") { try JPEGBenchmark.run(options) }
        if options.runs("demosaic") { try DemosaicBenchmark.run(options) }
        if options.runs("fusion") { try FusionBenchmark.run(options) }
        if options.runs("develop") {
            try DevelopBenchmark.run(options)
            try ThirdPartyDevelopBenchmark.run(options)
        }
        if options.runs("heif") { try HEIFBenchmark.run(options) }
        if options.runs("library") { try PhotoLibraryBenchmark.run(options) }
        if options.runs("truedepth") { try TrueDepthBenchmark.run(options) }
        if options.runs("depth") { try await DepthCaptureBenchmark.run(options) }
        if options.named("soak") { try SoakBenchmark.run(options) }
        if options.named("load") { try LoadBenchmark.run(options) }
        if options.named("stream") { try await StreamBenchmark.run(options) }
    }
}
