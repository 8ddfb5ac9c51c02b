import CameraSimulation
import CaptureCore
import CaptureEngine
import Foundation
import MediaFormats

/// An output that records the session's frames to a file (Apple's `AVCaptureFileOutput`); use
/// `AVCaptureMovieFileOutput`.
///
/// `@unchecked Sendable`: `lock` guards every mutable field (the recording, its URL and delegate, the limits).
public class AVCaptureFileOutput: AVCaptureOutput, @unchecked Sendable {
    let lock = NSLock()
    var recorder: StreamRecorder?
    private var _outputFileURL: URL?
    private var _maxDuration: CMTime = .invalid
    /// The serial queue recording callbacks run on.
    let callbackQueue = DispatchQueue(label: "OpenCapture.AVCaptureFileOutput.delegate")

    override init() { super.init() }

    /// The file being recorded to, nil when not recording.
    public var outputFileURL: URL? { lock.withLock { recorder == nil ? nil : _outputFileURL } }
    /// Whether a recording is in progress.
    public var isRecording: Bool { lock.withLock { recorder != nil } }
    /// Whether recording is paused (pausing is not offered: always false).
    public var isRecordingPaused: Bool { false }
    /// How much has been recorded so far.
    public var recordedDuration: CMTime {
        CMTime(seconds: lock.withLock { recorder?.recordedDuration } ?? 0, preferredTimescale: 600)
    }
    /// The longest recording; `.invalid` (the default) for no limit. Reaching it ends the recording with
    /// `AVError.maximumDurationReached` and a complete file that lasts this long, sound included: frames this CPU
    /// could not encode in time just before the limit are missing and the frame before them is held to the end, as
    /// in a gap mid-movie.
    public var maxRecordedDuration: CMTime {
        get { lock.withLock { _maxDuration } }
        set { lock.withLock { _maxDuration = newValue } }
    }

    /// Starts recording the session's frames to `outputFileURL`, a new file in a writable folder. A URL
    /// that is not a file URL, an existing file, an unwritable folder, a session that is not running or a disabled
    /// video connection (`isEnabled` false: Apple raises "No active/enabled connections"; `.noDataCaptured` here)
    /// ends at once with `didFinishRecordingTo` and an `AVError` (Apple raises for some of these). Frames that arrive
    /// while the connection is disabled during the recording are left out: the movie holds the frame before until
    /// the connection is enabled again (the sound goes on).
    public func startRecording(to outputFileURL: URL, recordingDelegate delegate: AVCaptureFileOutputRecordingDelegate) {
        let connections = self.connections
        let target = CallbackTarget(delegate)
        func refuse(_ code: AVError.Code, _ reason: String) {
            let error = AVError(code, userInfo: [NSLocalizedDescriptionKey: reason, AVErrorRecordingSuccessfullyFinishedKey: false])
            callbackQueue.async { target.value.fileOutput(self, didFinishRecordingTo: outputFileURL, from: connections, error: error) }
        }
        guard outputFileURL.isFileURL else { return refuse(.invalidSourceMedia, "\(outputFileURL) is not a file URL") }
        guard !FileManager.default.fileExists(atPath: outputFileURL.path) else {
            return refuse(.fileAlreadyExists, "\(outputFileURL.path) already exists")
        }
        guard !isRecording else { return refuse(.recordingAlreadyInProgress, "a recording is already in progress") }
        if let connection = connections.first, !connection.isEnabled {
            return refuse(.noDataCaptured, "no active/enabled connections: the movie file output's video connection is disabled")
        }
        guard let stream = session?.frameStream, stream.isRunning, connections.first?.input?.device != nil else {
            return refuse(.sessionNotRunning, "the session is not running with a camera")
        }
        let size = stream.configuration.size
        var settings = MovieSettings(codec: movieCodec, width: size.width, height: size.height,
                                     frameRate: Int(stream.configuration.frameRate.rounded()))
        settings.preset = "ultrafast"
        settings.colorSpace = stream.configuration.device.colorSpace
        // The connection's rotation goes into the track's display matrix, as stills record it as EXIF orientation.
        settings.rotation = Int(connections.first?.videoRotationAngle ?? 0)
        settings.mirrored = connections.first?.isVideoMirrored ?? false
        let (date, offset) = session?.captureClock.read() ?? (Date(), 0)
        settings.creationDate = date
        settings.metadata = CaptureExif.movieMetadata(date: date, offsetSeconds: offset)
        let limit = maxRecordedDuration
        let connection = connections.first
        do {
            let recorder = try StreamRecorder(
                stream: stream, url: outputFileURL, settings: settings, maxDuration: limit.isValid ? limit.seconds : nil,
                sound: session?.hasMicrophone == true ? RoomSound(seed: stream.configuration.device.seed) : nil,
                takesFrame: { connection?.isEnabled ?? true },
                onStart: { [weak self] _ in
                    guard let self else { return }
                    self.callbackQueue.async { target.value.fileOutput(self, didStartRecordingTo: outputFileURL, from: connections) }
                },
                onFinish: { [weak self] _, ending, error in
                    guard let self else { return }
                    self.lock.withLock { self.recorder = nil }
                    let reported = Self.report(ending: ending, error: error)
                    self.callbackQueue.async {
                        target.value.fileOutput(self, didFinishRecordingTo: outputFileURL, from: connections, error: reported)
                    }
                })
            lock.withLock {
                self.recorder = recorder
                _outputFileURL = outputFileURL
            }
            recorder.start()
        } catch {
            refuse(.noDataCaptured, "\(error)")
        }
    }

    /// Stops the recording; `didFinishRecordingTo` follows once the file is complete.
    public func stopRecording() {
        lock.withLock { recorder }?.stop()
    }

    /// The codec new recordings use (the movie output's choice).
    var movieCodec: MovieCodec { .h264 }

    /// The delegate's error for how a recording ended.
    static func report(ending: StreamRecorder.Ending, error: (any Error)?) -> Error? {
        switch ending {
        case .stopped where error == nil:
            return nil
        case .maximumDuration where error == nil:
            return AVError(.maximumDurationReached, userInfo: [
                NSLocalizedDescriptionKey: "Recording Stopped: the movie reached its maximum duration (the file is complete)",
                AVErrorRecordingSuccessfullyFinishedKey: true])
        default:
            return AVError(.noDataCaptured, userInfo: [NSLocalizedDescriptionKey: "\(error.map { "\($0)" } ?? "recording failed")",
                                                      AVErrorRecordingSuccessfullyFinishedKey: false])
        }
    }

    override var needsFrameStream: Bool { true }

    override func attachStream(_ stream: FrameStream?) {
        // A recording ends with its stream (the session stopped or reconfigured).
        if stream == nil { lock.withLock { recorder }?.stop() }
    }
}
