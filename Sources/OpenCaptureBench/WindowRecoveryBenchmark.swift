import CaptureCore
import Foundation
import MediaFormats
import OpenCapture

/// Issue 11's window check, measured against the ground truth: Apple's −2/0/+2 auto-exposure bracket (RAW + JPEG,
/// 1080p) of the room in daylight and lamp light; the share of window pixels (the truth deeper than 30 m) at white
/// (any channel ≥ 250) in the middle shot, the −2 shot, the Mertens fusion of the JPEGs and the raw-merged fusion.
enum WindowRecoveryBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        for lighting in [SimulatedLighting.daylight, .indoor] {
            guard let (session, _, output) = try BenchmarkSession.start(.builtInWideAngleCamera, preset: .hd1920x1080,
                                                                        lighting: lighting, seed: 11) else { return }
            defer { session.stopRunning() }
            let settings = AVCapturePhotoBracketSettings(
                rawPixelFormatType: output.availableRawPhotoPixelFormatTypes[0],
                processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                bracketedSettings: [-2, 0, 2].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
            let photos = try await output.capturePhotos(with: settings).photos
            let processed = photos.filter { !$0.isRawPhoto }
            guard processed.count == 3, let truth = processed[1].simulationGroundTruth() else {
                throw BenchmarkError(description: "window bracket: \(processed.count) processed photos")
            }
            func clipped(_ jpeg: Data?) throws -> Double {
                guard let jpeg else { return .nan }
                let image = try JPEGDecoder.decode(jpeg)
                var window = 0, white = 0
                for i in 0..<(image.width * image.height) where truth.depth[i] > 30 {
                    window += 1
                    if max(image.storage[3 * i], image.storage[3 * i + 1], image.storage[3 * i + 2]) >= 250 { white += 1 }
                }
                return 100 * Double(white) / Double(max(window, 1))
            }
            let name = "window.\(lighting == .daylight ? "daylight" : "indoor")"
            let middle = try clipped(processed[1].fileDataRepresentation()), dark = try clipped(processed[0].fileDataRepresentation())
            let mertens = try clipped(try PhotoFusion().fuse(processed).fusedJPEG)
            let start = Date()
            let merged = try PhotoFusion().fuse(photos)
            let mergeSeconds = Date().timeIntervalSince(start)
            let rawMerged = try clipped(merged.fusedJPEG)
            report("\(name).clipped.middle_shot", middle, "%", format: "%.1f", anchor: "window pixels at white, 0 EV shot")
            report("\(name).clipped.minus_2_shot", dark, "%", format: "%.1f", anchor: "−2 EV shot (auto exposure's headroom + local tone mapping)")
            report("\(name).clipped.mertens_jpegs", mertens, "%", format: "%.1f", anchor: "PhotoFusion of the three JPEGs")
            report("\(name).clipped.raw_merged", rawMerged, "%", format: "%.1f",
                   anchor: "PhotoFusion of the three RAW photos: merged, then developed (target < ¼ of the middle shot's)")
            report("\(name).raw_merge_fusion.1080p", mergeSeconds, "s", format: "%.2f", anchor: "in process: read DNGs, merge, develop, encode, HDR")
        }
    }
}
