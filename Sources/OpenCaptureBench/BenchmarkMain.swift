import CameraSimulation
import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import OpenCapture

/// `opencapture-bench`: release-build figures for the capture path, printed one `name: value unit`
/// line each, beside the anchors from shared/reference/ANCHORS.md.
///
/// Usage: opencapture-bench [--data DIR] [--only NAME[,NAME…]] [--runs N]
@main
struct BenchmarkMain {
    static func main() async throws {
        var options = BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        if options.showHelp {
            print("usage: opencapture-bench [--data DIR] [--only capture,bracket,sensor,isp,jpeg,demosaic,fusion,develop,heif] [--runs N]")
            return
        }
        options.dataDirectory = options.dataDirectory ?? BenchmarkOptions.findSharedData()
        print("# OpenCapture benchmarks — release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("# figure: value unit    [anchor]")
        if options.runs("capture") { try await CaptureBenchmark.run(options) }
        if options.runs("bracket") { try await PreparedBracketBenchmark.run(options) }
        if options.runs("sensor") { SensorBenchmark.run(options) }
        if options.runs("isp") { ISPBenchmark.run(options) }
        if options.runs("jpeg") { try JPEGBenchmark.run(options) }
        if options.runs("demosaic") { try DemosaicBenchmark.run(options) }
        if options.runs("fusion") { try FusionBenchmark.run(options) }
        if options.runs("develop") { try DevelopBenchmark.run(options) }
        if options.runs("heif") { try HEIFBenchmark.run(options) }
    }
}
