import Foundation
import OpenCapture

/// 1,000 successive captures through the public API (`capturePhoto(with:delegate:)`, one new
/// delegate each, as an app makes them), reporting resident memory after a warm-up, every 100
/// captures and at the end. Memory should stay flat: every photo, buffer and delegate is released.
enum SoakBenchmark {
    static let warmUp = 20
    static func run(_ options: BenchmarkOptions) throws {
        let captures = options.soakCaptures
        let rig = try CaptureRig(preset: CaptureRig.preset(named: options.capturePreset) ?? .vga640x480)
        defer { rig.session.stopRunning() }
        let label = "soak.\(rig.dimensions)"

        func captureOne() -> (seconds: Double, ok: Bool) {
            let recorder = CallbackRecorder()
            let start = DispatchTime.now().uptimeNanoseconds
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: recorder)
            recorder.finished.wait()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let log = recorder.log
            let ok = log.map(\.kind) == CallbackRecorder.Kind.allCases && recorder.reportedErrors.isEmpty && recorder.deliveredBytes > 0
            return (seconds, ok)
        }

        for _ in 0..<warmUp { _ = captureOne() }
        // Start from a trimmed heap (malloc_trim once, here only), so the raw readings below are
        // what the captures add; at the end a second trim separates live memory from allocator slack.
        let start = ResidentMemory.currentAfterTrim ?? 0
        report("\(label).rss.after_\(warmUp)_warmup", start, "MB", anchor: "VmRSS; target: flat within a few MB after warm-up")
        var times: [Double] = [], failures = 0
        let began = DispatchTime.now().uptimeNanoseconds
        for n in 1...captures {
            let (seconds, ok) = captureOne()
            times.append(seconds)
            if !ok { failures += 1 }
            if n % (captures / 10) == 0 && n < captures {
                let rss = ResidentMemory.current ?? 0
                report("\(label).rss.at_\(n)", rss, "MB", anchor: String(format: "%+.1f MB since warm-up", rss - start))
            }
        }
        let total = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        let end = ResidentMemory.current ?? 0
        report("\(label).rss.at_\(captures)", end, "MB", anchor: String(format: "%+.1f MB since warm-up", end - start))
        let trimmed = ResidentMemory.currentAfterTrim ?? 0
        report("\(label).rss.growth", end - start, "MB", format: "%+.1f", anchor: "target: within a few MB (flat)")
        report("\(label).rss.growth_after_trim", trimmed - start, "MB", format: "%+.1f",
               anchor: String(format: "live memory only (malloc_trim(0)); %.2f KB per capture", (trimmed - start) * 1024 / Double(captures)))
        report("\(label).rss.peak", ResidentMemory.peak ?? 0, "MB", anchor: "VmHWM over the whole run")
        report("\(label).capture.median", median(times) * 1000, "ms", anchor: "capturePhoto → didFinishCapture, one at a time")
        report("\(label).total", total, "s", format: "%.1f", anchor: "\(captures) captures after \(warmUp) warm-up")
        report("\(label).incomplete", Double(failures), "captures", format: "%.0f",
               anchor: "target 0: five callbacks in order, no error, a photo delivered")
    }
}

/// A running session with one simulated back camera and a photo output.
struct CaptureRig {
    let device: AVCaptureDevice
    let session: AVCaptureSession
    let output: AVCapturePhotoOutput

    init(preset: AVCaptureSession.Preset, seed: UInt64 = 1) throws {
        guard let device = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw BenchmarkError(description: "no simulated back camera")
        }
        device.simulationSeed = seed
        device.simulatedLighting = .indoor
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        (self.device, self.session, self.output) = (device, session, output)
    }

    /// `vga`, `hd720`, `hd1080` or `photo` (12 MP); nil for anything else.
    static func preset(named name: String?) -> AVCaptureSession.Preset? {
        switch name {
        case "vga": return .vga640x480
        case "hd720": return .hd1280x720
        case "hd1080": return .hd1920x1080
        case "photo": return .photo
        default: return nil
        }
    }

    /// The photo size the output delivers, e.g. "640x480".
    var dimensions: String {
        let d = output.maxPhotoDimensions
        return "\(d.width)x\(d.height)"
    }
}

/// A benchmark that could not set up.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
}
