import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture live`: a Live Photo (still + movie), printing each delegate callback with its time.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live", abstract: "Take a Live Photo (a still and a ~3 s movie around it) and print each callback with its time.")

    @OptionGroup var camera: CameraOptions
    @Option(help: "Still format: heic or jpeg.") var format: String = "heic"
    @Option(help: "Movie codec: h264 or hevc.") var codec: String = "h264"
    @Option(name: .shortAndLong, help: "Folder for the still and the movie.") var output: String = "out"

    func validate() throws {
        // An empty name (an unset shell variable) would put the still and the movie in the current folder unasked.
        guard !output.isEmpty else { throw CLIError("-o: give a folder for the still and the movie") }
        guard ["heic", "jpeg"].contains(format) else { throw CLIError("--format must be heic or jpeg") }
        guard camera.sessionPreset == .photo else { throw CLIError("Live Photos need the photo preset (--preset photo, the default)") }
        guard ["h264", "hevc"].contains(codec) else { throw CLIError("--codec must be h264 or hevc") }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: output)
        // Everything is checked before anything is made: a folder the files cannot be written into (or that cannot be
        // made) is said now, not after the viewfinder, the shutter and the movie; then the session (a refused --date,
        // no Live Photo here). The folder is made only once both pass.
        try AtomicFile.checkDestination(directory.appendingPathComponent("live-\(OutputNumbering.next("live", in: directory)).heic"),
                                        creatingFolder: true)
        let (session, device, photoOutput) = try camera.makeSession { _, photoOutput in
            guard photoOutput.isLivePhotoCaptureSupported else { throw CLIError("Live Photo capture is not supported here") }
            photoOutput.isLivePhotoCaptureEnabled = true
        }
        defer { session.stopRunning() }
        try AtomicFile.makeFolder(directory)
        // The microphone, so the movie has sound.
        if let microphone = AVCaptureDevice.default(for: .audio) { session.addInput(try AVCaptureDeviceInput(device: microphone)) }
        // The viewfinder: a video data output on the same stream. A Live Photo keeps the 1.5 s before the shutter,
        // so wait until the viewfinder has shown that much, as a phone's camera is open before you tap.
        let viewfinder = AVCaptureVideoDataOutput()
        let firstFrame = FirstFrameWaiter()
        viewfinder.setSampleBufferDelegate(firstFrame, queue: DispatchQueue(label: "opencapture.live.viewfinder"))
        session.addOutput(viewfinder)
        print("\(device.localizedName), \(camera.lighting.rawValue) scene: viewfinder starting…")
        await firstFrame.wait()
        print("  viewfinder running; keeping 1.5 s of frames before the shutter…")
        try await Task.sleep(nanoseconds: 1_600_000_000)
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: format == "heic" ? AVVideoCodecType.hevc : .jpeg])
        if format == "heic" { settings.embeddedThumbnailPhotoFormat = CameraOptions.heicThumbnail }
        let name = "live-\(OutputNumbering.next("live", in: directory))"
        let movieURL = directory.appendingPathComponent("\(name).mov")
        settings.livePhotoMovieFileURL = movieURL
        settings.livePhotoVideoCodecType = codec == "hevc" ? .hevc : .h264
        let delegate = PrintingPhotoDelegate(directory: directory, name: name)
        await delegate.capture(settings, with: photoOutput)
        // An AVError as its sentence, not its NSError dump.
        if let failure = delegate.failure { throw CLIError("the Live Photo failed: \(MovieRecordingWaiter.describe(failure))") }
    }
}

/// Resumes once the first viewfinder frame arrives.
///
/// `@unchecked Sendable`: `lock` guards the continuation and the flag.
final class FirstFrameWaiter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var arrived = false
    private var continuation: CheckedContinuation<Void, Never>?

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            arrived = true
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Bool in
                if arrived { return true }
                self.continuation = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
