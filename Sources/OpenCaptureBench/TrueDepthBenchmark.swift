import CameraSimulation
import CaptureCore
import Depth

/// The TrueDepth path at 640×480: one infrared frame (first = scene render, then per frame), the
/// structured-light decode and the registration to the colour camera.
enum TrueDepthBenchmark {
    static func run(_ options: BenchmarkOptions) throws {
        let rig = TrueDepthRig(scene: .default, seed: 1)
        let (reference, referenceTime) = measure { rig.referenceImage() }
        let (_, firstFrame) = measure { rig.captureInfrared(seed: 0) }
        var capture: [Double] = [], decode: [Double] = [], register: [Double] = []
        for i in 0..<options.repetitions {
            let (frame, c) = measure { rig.captureInfrared(seed: UInt64(i + 1)) }
            let (depth, d) = try measure { try StructuredLightDecoder.decode(infrared: frame, reference: reference, calibration: rig.calibration) }
            let (_, r) = measure { DepthRegistration.register(depth: depth, from: rig.calibration.infrared, to: rig.calibration.color) }
            capture.append(c); decode.append(d); register.append(r)
        }
        report("truedepth.reference", referenceTime * 1000, "ms", format: "%.0f", anchor: "renders the calibration plane once")
        report("truedepth.first_frame", firstFrame * 1000, "ms", format: "%.0f", anchor: "renders and caches the scene")
        report("truedepth.capture", median(capture) * 1000, "ms", format: "%.1f")
        report("truedepth.decode", median(decode) * 1000, "ms", format: "%.0f")
        report("truedepth.register", median(register) * 1000, "ms", format: "%.1f")
        report("truedepth.frame_to_depth", (median(capture) + median(decode) + median(register)) * 1000, "ms", format: "%.0f",
               anchor: "TrueDepth streams depth at 30 fps (33 ms)")
    }
}
