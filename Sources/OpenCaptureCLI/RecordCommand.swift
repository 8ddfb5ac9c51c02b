import ArgumentParser
import Foundation
import MediaFormats
import OpenCapture

/// `opencapture record`: a movie from the running camera with AVCaptureMovieFileOutput.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record", abstract: "Record a movie (H.264 or HEVC) from the simulated camera.")

    @OptionGroup var camera: CameraOptions
    @Option(parsing: .unconditional, help: "Seconds to record (0.001…3600).") var duration: Double = 3
    @Option(help: "Frames per second (1…60).") var fps: Int32 = 30
    @Option(help: "Codec: h264 or hevc.") var codec: String = "h264"
    @Flag(name: .customLong("no-sound"), help: "Record without the microphone (no audio track).") var noSound = false
    @Option(name: .shortAndLong, help: "The movie to write (.mov); must not exist.") var output: String = "clip.mov"

    func validate() throws {
        // An empty name named the current folder: "… exists; a recording never replaces a file".
        guard !output.isEmpty else { throw CLIError("-o: give a name for the movie, e.g. clip.mov") }
        // Not just above 0: a limit that rounds to a zero CMTime is no limit at all, and the recording never ended.
        guard duration.isFinite, duration >= 0.001, duration <= 3600 else { throw CLIError("--duration \(duration) must be 0.001…3600 seconds") }
        guard (1...60).contains(fps) else { throw CLIError("--fps must be 1…60") }
        guard ["h264", "hevc"].contains(codec) else { throw CLIError("--codec must be h264 or hevc") }
    }

    func run() async throws {
        let url = URL(fileURLWithPath: output)
        // A movie output never replaces a file (Apple's rule); say so before the camera starts, not after "recording…".
        if AtomicFile.exists(url) { throw CLIError("\(url.path) exists; a recording never replaces a file: choose another name") }
        // A folder that is missing, or where no file can be made (read-only, /proc), likewise.
        try AtomicFile.checkDestination(url)
        var options = camera
        if options.preset == nil { options.preset = .high }   // a movie at 1080p unless a preset is asked for
        let movie = AVCaptureMovieFileOutput()
        let (session, device, _) = try options.makeSession { device, _ in
            try device.lockForConfiguration()
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: fps)
            device.unlockForConfiguration()
        }
        session.addOutput(movie)
        if !noSound, let microphone = AVCaptureDevice.default(for: .audio) { session.addInput(try AVCaptureDeviceInput(device: microphone)) }
        defer { session.stopRunning() }
        if let connection = movie.connections.first {
            movie.setOutputSettings([AVVideoCodecKey: codec == "hevc" ? AVVideoCodecType.hevc : .h264], for: connection)
        }
        movie.maxRecordedDuration = CMTime(seconds: duration, preferredTimescale: 1_000_000)
        // The stream's size: photo-sized formats stream (and record) 1440 wide, as an iPhone's photo mode does.
        let size = device.streamSize
        print("\(device.localizedName): recording \(size.width)×\(size.height) at \(fps) fps for \(duration) s to \(url.path)")
        let recorder = MovieRecordingWaiter()
        let start = Date()
        movie.startRecording(to: url, recordingDelegate: recorder)
        let error = await recorder.finished()
        if let error = error as? AVError, error.code == .maximumDurationReached, error.recordingSuccessfullyFinished == true {
            // The requested length was reached: a complete movie.
        } else if let error {
            throw CLIError("recording failed: \(MovieRecordingWaiter.describe(error))")
        }
        // What the file holds, read back: frames this CPU could not make or encode in time are missing, not padded (the
        // frame before is held, also to the end of a movie that reached --duration).
        let elapsed = Date().timeIntervalSince(start)
        guard let written = try? QuickTimeMovie.parse(Data(contentsOf: url)), let video = written.videoTrack else {
            print(String(format: "  wrote %@ in %.2f s", url.lastPathComponent, elapsed))
            return
        }
        let slots = Int((written.duration * Double(fps)).rounded())
        let skipped = max(0, slots - video.sampleCount)
        print(String(format: "  wrote %@: %.2f s, %d frames%@ in %.2f s", url.lastPathComponent, written.duration, video.sampleCount,
                     skipped > 0 ? " (\(skipped) of \(slots) frame slots skipped: this CPU could not make or encode them in time; the frame before is held)" : "",
                     elapsed))
    }
}

/// Waits for a recording's end.
///
/// `@unchecked Sendable`: `lock` guards the continuation and the result.
final class MovieRecordingWaiter: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Error?, Never>?
    private var result: Error??

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        print("  didStartRecording")
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
                    error: Error?) {
        // A failure is reported once, by the command; a complete movie's note (maximum duration reached) here.
        if error == nil || (error as? AVError)?.recordingSuccessfullyFinished == true {
            print("  didFinishRecording" + (error.map { ": " + Self.describe($0) } ?? ""))
        }
        let waiting = lock.withLock { () -> CheckedContinuation<Error?, Never>? in
            result = .some(error)
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: error)
    }

    /// An AVError as one line: its description and, for a complete recording, that it finished.
    static func describe(_ error: Error) -> String {
        guard let error = error as? AVError else { return "\(error)" }
        let reason = error.userInfo[NSLocalizedDescriptionKey] as? String ?? "\(error.code)"
        if error.code == .maximumDurationReached { return "maximum duration reached (a complete movie)" }
        return error.recordingSuccessfullyFinished == true ? "\(reason) (the movie is complete)" : reason
    }

    func finished() async -> Error? {
        await withCheckedContinuation { continuation in
            let done = lock.withLock { () -> Error?? in
                if let result { return result }
                self.continuation = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}
