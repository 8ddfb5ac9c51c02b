import CameraSimulation
import CaptureCore
import CaptureEngine
import Foundation
import ImagePipeline
import MediaFormats
import OpenCapture

/// The running camera: per-frame stage costs at 1080p, the frame rate a session sustains with a video data
/// output (and while recording), the Live Photo movie's ready time after its post-roll and the memory of ten
/// Live Photos in a row, and movie encoding against ffmpeg/x264 on the same frames.
enum StreamBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        stages()
        try sustained(seconds: 6)
        try depthStreaming(seconds: 5)
        try await shutterLag()
        try livePhotos(count: 10)
        try encoding()
    }

    /// Inner stages for one 1080p frame (1920×1440 readout cropped to 1080 rows), labelled as such.
    static func stages() {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 3)
        let readout = CameraModule.backWide.readoutSize(forPhoto: Size(width: 1920, height: 1080))
        let metering = camera.meter(size: readout)
        camera.prepare(size: readout)
        var sensor: [Double] = [], isp: [Double] = []
        // The stream's own developer (what a running session calls per frame), not the photo ISP.
        let settings = VideoFrameDeveloper.settings(colorSpace: .sRGB)
        let frameSize = Size(width: 1920, height: 1080)
        for i in 0..<12 {
            let exposure = SensorExposure(size: readout, duration: min(metering.duration, 1.0 / 32), iso: metering.iso,
                                          startTime: Double(i) / 30, seed: UInt64(i))
            let (raw, s) = measure { camera.capture(exposure, centerRows: 1080) }
            let (_, p) = measure { _ = VideoFrameDeveloper.develop(raw, size: frameSize, settings: settings) }
            sensor.append(s); isp.append(p)
        }
        report("stream.1080p.stage.sensor", median(sensor) * 1000, "ms/frame", format: "%.1f", anchor: "inner stage: 1920×1440 readout, middle 1080 rows exposed")
        report("stream.1080p.stage.isp", median(isp) * 1000, "ms/frame", format: "%.1f", anchor: "inner stage: video ISP to 420v")
    }

    /// A 1080p30 session with a video data output for `seconds`, then the same while recording a movie for
    /// `recordingSeconds` (memory sampled 2 s in and at the end: a long recording keeps it flat).
    static func sustained(seconds: Double, recordingSeconds: Double = 20) throws {
        for recording in [false, true] {
            let seconds = recording ? recordingSeconds : seconds
            let device = AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back)!
            let session = AVCaptureSession()
            session.sessionPreset = .hd1920x1080
            session.addInput(try AVCaptureDeviceInput(device: device))
            let video = AVCaptureVideoDataOutput()
            let counter = FrameCounter()
            video.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.frames"))
            session.addOutput(video)
            let movie = AVCaptureMovieFileOutput()
            if recording { session.addOutput(movie) }
            session.startRunning()
            counter.waitForFirst()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let waiter = RecordingEnd()
            if recording { movie.startRecording(to: folder.appendingPathComponent("b.mov"), recordingDelegate: waiter) }
            let before = counter.count, dropsBefore = video.deliveryCounts.dropped
            Thread.sleep(forTimeInterval: 2)
            let early = ResidentMemory.current ?? 0
            Thread.sleep(forTimeInterval: seconds - 2)
            let late = ResidentMemory.current ?? 0
            let delivered = counter.count - before, dropped = video.deliveryCounts.dropped - dropsBefore
            if recording { movie.stopRecording(); waiter.wait() }
            session.stopRunning()
            let name = recording ? "stream.1080p30.recording" : "stream.1080p30.video_data_output"
            report(name + ".fps", Double(delivered) / seconds, "fps", format: "%.1f", anchor: "target 30 fps, no dropped frames")
            report(name + ".missed", 100 * (1 - Double(delivered) / (seconds * 30)), "% of frame slots", format: "%.1f",
                   anchor: "frames the sensor skipped or the delegate dropped (\(dropped) dropped)")
            if recording {
                report(name + ".rss_growth", late - early, "MB", format: "%.0f",
                       anchor: String(format: "resident memory from 2 s to %.0f s into the recording (%.0f → %.0f MB); flat is ≈ 0", seconds, early, late))
            }
        }
    }

    /// Shutter lag at the 12 MP photo preset with the viewfinder streaming: from `capturePhoto` to the start of the
    /// exposure the photo comes from (its timestamp, on the session's synchronisation clock), with and without
    /// zero shutter lag; the median of five each.
    static func shutterLag() async throws {
        let (session, output, counter) = try photoSessionWithViewfinder()
        session.startRunning()
        counter.waitForFirst()
        _ = try await output.capturePhotos(with: AVCapturePhotoSettings())     // settle: renders, auto focus
        let clock = session.synchronizationClock!
        for zsl in [false, true] {
            output.isZeroShutterLagEnabled = zsl
            var lags: [Double] = [], deliveries: [Double] = []
            for _ in 0..<5 {
                let call = CMClockGetTime(clock).seconds
                let result = try await output.capturePhotos(with: AVCapturePhotoSettings())
                if let stamp = result.photos.first?.timestamp.seconds { lags.append(stamp - call) }
                deliveries.append(CMClockGetTime(clock).seconds - call)
                try await Task.sleep(nanoseconds: 200_000_000)
            }
            let name = "shutter_lag.12mp.\(zsl ? "zero_shutter_lag" : "without_zsl")"
            report(name, median(lags) * 1000, "ms", format: "%.0f",
                   anchor: zsl ? "the frame in progress at the call (≤ 0: exposed before the call)" : "call → exposure start")
            report(name + ".delivery", median(deliveries) * 1000, "ms", format: "%.0f",
                   anchor: zsl ? "call → photo delivered; only the rest of the frame in progress is waited for"
                       : "call → photo delivered; the whole exposure after the call")
        }
        session.stopRunning()
    }

    /// A 12 MP photo-preset session with a photo output and a video data output as the viewfinder (not started).
    static func photoSessionWithViewfinder() throws -> (AVCaptureSession, AVCapturePhotoOutput, FrameCounter) {
        let device = AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back)!
        let session = AVCaptureSession()
        session.sessionPreset = .photo
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        let video = AVCaptureVideoDataOutput()
        let counter = FrameCounter()
        video.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.viewfinder"))
        session.addOutput(video)
        return (session, output, counter)
    }

    /// Ten Live Photos in a row at the 12 MP photo preset: the movie's ready time after its post-roll, and memory.
    static func livePhotos(count: Int) throws {
        let (session, output, counter) = try photoSessionWithViewfinder()
        output.isLivePhotoCaptureEnabled = true
        session.startRunning()
        counter.waitForFirst()
        Thread.sleep(forTimeInterval: 1.6)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-bench-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var ready: [Double] = [], total: [Double] = []
        ResidentMemory.resetPeak()
        let startRSS = ResidentMemory.current ?? 0
        for i in 0..<count {
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            settings.livePhotoMovieFileURL = folder.appendingPathComponent("live-\(i).mov")
            let timer = LiveTimer()
            let start = Date()
            output.capturePhoto(with: settings, delegate: timer)
            timer.wait()
            total.append(Date().timeIntervalSince(start))
            if let r = timer.readyAfterPostRoll { ready.append(r) }
        }
        session.stopRunning()
        report("live_photo.movie_ready_after_post_roll", median(ready), "s", format: "%.2f", anchor: "target ≤ 2 s (1440×1080, 15 fps, H.264)")
        report("live_photo.request_to_finish", median(total), "s", format: "%.2f", anchor: "includes the 1.5 s post-roll and the 12 MP HEIC")
        report("live_photo.ten_in_a_row.peak_rss", ResidentMemory.peak ?? 0, "MB", format: "%.0f",
               anchor: "process peak; \(String(format: "%.0f", startRSS)) MB before the first")
        report("live_photo.ten_in_a_row.rss_growth", (ResidentMemory.currentAfterTrim ?? 0) - startRSS, "MB", format: "%.0f",
               anchor: "after malloc_trim; flat is the target")
    }

    /// 90 1080p frames from the stream's developer encoded by MovieWriter and by ffmpeg/x264 from raw NV12, same preset.
    static func encoding() throws {
        let camera = SimulatedCamera(module: .backWide, scene: .livingRoom(lighting: .indoor), seed: 3)
        let readout = CameraModule.backWide.readoutSize(forPhoto: Size(width: 1920, height: 1080))
        let metering = camera.meter(size: readout)
        var settings = ISPSettings()
        settings.demosaic = .malvarHeCutler
        let frames: [PixelBuffer] = (0..<90).compactMap { i in
            let raw = camera.capture(SensorExposure(size: readout, duration: min(metering.duration, 1.0 / 32), iso: metering.iso,
                                                    startTime: Double(i) / 30, seed: UInt64(i)))
            return PixelBuffer.yCbCr420(from: ImageSignalProcessor(settings: settings).process(raw.croppingRows(to: 1080)), fullRange: false,
                                          matrix: .video(width: 1920, height: 1080))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-bench-enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for preset in ["ultrafast", "veryfast"] {
            var movie = MovieSettings(codec: .h264, width: 1920, height: 1080, frameRate: 30)
            movie.preset = preset
            let (_, ours) = try measure {
                let writer = try MovieWriter(url: folder.appendingPathComponent("ours-\(preset).mov"), settings: movie)
                for (i, frame) in frames.enumerated() { try writer.append(frame, at: Double(i) / 30) }
                try writer.finish()
            }
            report("movie.encode.1080p.h264.\(preset)", 90 / ours, "fps", format: "%.0f", anchor: "MovieWriter, 90 frames in process")
            guard let ffmpeg = ExternalTool.find("ffmpeg") else { continue }
            let raw = folder.appendingPathComponent("frames.nv12")
            if !FileManager.default.fileExists(atPath: raw.path) {
                var bytes = Data()
                for frame in frames {
                    for plane in 0..<2 {
                        let rows = plane == 0 ? 1080 : 540
                        let base = frame.baseAddress(ofPlane: plane)!
                        for y in 0..<rows { bytes.append(Data(bytes: base + y * frame.planes[plane].bytesPerRow, count: 1920)) }
                    }
                }
                try bytes.write(to: raw)
            }
            let child = ChildProcess.run(ffmpeg, ["-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "nv12", "-s", "1920x1080",
                                                  "-r", "30", "-i", raw.path, "-c:v", "libx264", "-preset", preset, "-crf", "23",
                                                  folder.appendingPathComponent("ffmpeg-\(preset).mov").path])
            report("movie.encode.1080p.h264.\(preset).ffmpeg", 90 / child.seconds, "fps", format: "%.0f",
                   anchor: "anchor: ffmpeg -c:v libx264 from raw NV12 (process start to file)")
        }
    }
}

extension StreamBenchmark {
    /// Depth data outputs next to a video data output: maps a second and the video rate kept, for the dual
    /// camera (stereo at 320×240 and 768×576) and TrueDepth (structured light at 640×480).
    static func depthStreaming(seconds: Double) throws {
        let cases: [(String, AVCaptureDevice.DeviceType, AVCaptureDevice.Position, AVCaptureSession.Preset, Int)] = [
            ("dual.320x240", .builtInDualCamera, .back, .vga640x480, 320),
            ("dual.768x576", .builtInDualCamera, .back, .photo, 768),
            ("truedepth.640x480", .builtInTrueDepthCamera, .front, .vga640x480, 640),
        ]
        for (name, type, position, preset, width) in cases {
            let device = AVCaptureDevice.makeSimulatedDevice(type, position: position)!
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = preset
            session.addInput(try AVCaptureDeviceInput(device: device))
            try device.lockForConfiguration()
            device.activeDepthDataFormat = device.activeFormat.supportedDepthDataFormats.first {
                $0.formatDescription.dimensions.width == width
                    && $0.formatDescription.mediaSubType == kCVPixelFormatType_DisparityFloat16
            }
            device.unlockForConfiguration()
            let video = AVCaptureVideoDataOutput(), counter = FrameCounter()
            video.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.frames"))
            let depth = AVCaptureDepthDataOutput(), maps = DepthCounter()
            depth.setDelegate(maps, callbackQueue: DispatchQueue(label: "bench.depth"))
            session.addOutput(video)
            session.addOutput(depth)
            session.commitConfiguration()
            session.startRunning()
            counter.waitForFirst()
            maps.waitForFirst()
            let frames = counter.count, measured = maps.count
            Thread.sleep(forTimeInterval: seconds)
            let fps = Double(counter.count - frames) / seconds, mps = Double(maps.count - measured) / seconds
            session.stopRunning()
            report("stream.depth.\(name).maps", mps, "maps/s", format: "%.1f",
                   anchor: "iPhone: up to 24–30 maps/s; the rest dropped as late (video at \(String(format: "%.1f", fps)) fps alongside)")
        }
    }
}

/// Counts delivered depth maps.
private final class DepthCounter: NSObject, AVCaptureDepthDataOutputDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var maps = 0
    var count: Int { condition.withLock { maps } }
    func depthDataOutput(_ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
                         connection: AVCaptureConnection) {
        condition.withLock { maps += 1; condition.broadcast() }
    }
    func waitForFirst() {
        condition.lock(); defer { condition.unlock() }
        while maps == 0 { condition.wait() }
    }
}

/// Counts delivered frames.
final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var frames = 0
    var count: Int { condition.withLock { frames } }
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        condition.withLock { frames += 1; condition.broadcast() }
    }
    func waitForFirst() {
        condition.lock(); defer { condition.unlock() }
        while frames == 0 { condition.wait() }
    }
}

/// Waits for a recording's end.
private final class RecordingEnd: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
        done.signal()
    }
    func wait() { done.wait() }
}

/// Times a Live Photo's movie callbacks.
private final class LiveTimer: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var recordedAt: Date?
    private(set) var readyAfterPostRoll: Double?
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
                     resolvedSettings: AVCaptureResolvedPhotoSettings) {
        lock.withLock { recordedAt = Date() }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
                     photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        lock.withLock { readyAfterPostRoll = recordedAt.map { Date().timeIntervalSince($0) } }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        done.signal()
    }
    func wait() { done.wait() }
}
