import CaptureCore
import Foundation
import Testing
import OpenCaptureTestSupport
@testable import OpenCapture

/// Records every recording callback.
final class RecordingWatcher: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private(set) var started: URL?
    private(set) var finished: (url: URL, error: Error?)?

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        condition.withLock { started = fileURL }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
                    error: Error?) {
        condition.withLock { finished = (outputFileURL, error); condition.broadcast() }
    }

    func waitUntilFinished(timeout: Double = 60) -> (url: URL, error: Error?)? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while finished == nil { if !condition.wait(until: deadline) { break } }
        return finished
    }
}

@Suite(.serialized) struct AVCaptureMovieFileOutputTests {
    static func folder() throws -> URL { try ExternalTool.temporaryDirectory() }

    @Test func recordsAMovieThatFFprobeReads() throws {
        let movie = AVCaptureMovieFileOutput()
        let rig = StreamRig(frameRate: 15, extraOutputs: [movie])
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("clip.mov")
        let watcher = RecordingWatcher()
        _ = rig.collector.waitFor(1)
        movie.startRecording(to: url, recordingDelegate: watcher)
        #expect(movie.isRecording)
        _ = rig.collector.waitFor(rig.collector.snapshot.times.count + 16)
        #expect(movie.recordedDuration.seconds > 0.5)
        movie.stopRecording()
        let finished = try #require(watcher.waitUntilFinished())
        #expect(finished.error == nil)
        #expect(finished.url == url && watcher.started == url)
        #expect(!movie.isRecording)
        let data = try Data(contentsOf: url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1, "no temporary file left")
        #expect(data.count > 1000)
        if ExternalTool.ffprobe.isInstalled {
            let probe = try ExternalTool.ffprobe.run(["-v", "error", "-show_streams", "-show_format", "-of", "json"], file: data, fileExtension: "mov")
            let json = try #require(try JSONSerialization.jsonObject(with: probe.standardOutput) as? [String: Any])
            let streams = try #require(json["streams"] as? [[String: Any]])
            let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
            #expect(video["codec_name"] as? String == "h264")
            #expect(video["width"] as? Int == 352 && video["height"] as? Int == 288)
            #expect(video["color_space"] as? String == "smpte170m", "an SD movie's frames are BT.601, and say so")
            let frames = Int(video["nb_frames"] as? String ?? "") ?? 0
            #expect(frames >= 10)
            let format = try #require(json["format"] as? [String: Any])
            #expect((format["format_name"] as? String)?.contains("mov") == true)
            let tags = format["tags"] as? [String: Any]
            #expect(tags?["com.apple.quicktime.make"] as? String == "OpenCapture")
        }
    }

    @Test func theMicrophoneIsADeviceAndRecordsTheRoom() throws {
        let mic = try #require(AVCaptureDevice.default(for: .audio))
        #expect(mic.hasMediaType(.audio) && !mic.hasMediaType(.video))
        #expect(AVCaptureDevice.default(.microphone, for: .audio, position: .unspecified) === mic)
        #expect(AVCaptureDevice.authorizationStatus(for: .audio) == .authorized)
        let movie = AVCaptureMovieFileOutput()
        let rig = StreamRig(frameRate: 15, extraOutputs: [movie])
        let micInput = try AVCaptureDeviceInput(device: mic)
        #expect(rig.session.canAddInput(micInput))
        rig.session.addInput(micInput)
        #expect(!rig.session.canAddInput(try AVCaptureDeviceInput(device: AVCaptureDevice.makeSimulatedDevice(.microphone, position: .unspecified)!)),
                "one microphone")
        #expect(rig.session.inputs.count == 2)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("sound.mov")
        movie.maxRecordedDuration = CMTime(value: 3, timescale: 2)
        let watcher = RecordingWatcher()
        _ = rig.collector.waitFor(1)
        movie.startRecording(to: url, recordingDelegate: watcher)
        let finished = try #require(watcher.waitUntilFinished())
        #expect((finished.error as? AVError)?.code == .maximumDurationReached)
        guard ExternalTool.ffprobe.isInstalled else { return }
        let probe = try ExternalTool.ffprobe.run(["-v", "error", "-show_streams", "-of", "json"], file: try Data(contentsOf: url), fileExtension: "mov")
        let json = try #require(try JSONSerialization.jsonObject(with: probe.standardOutput) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(audio["codec_name"] as? String == "aac" && audio["sample_rate"] as? String == "48000")
        let audioLength = Double(audio["duration"] as? String ?? "") ?? 0, videoLength = Double(video["duration"] as? String ?? "") ?? 0
        #expect(abs(audioLength - videoLength) < 0.1, "audio \(audioLength) s, video \(videoLength) s")
    }

    /// A recording that reaches its maximum duration ends with a complete file no longer than that (at 2 fps a 0.3 s
    /// limit cuts the first frame's interval); a second one asked for meanwhile ends at once with
    /// `.recordingAlreadyInProgress`, writing nothing.
    @Test(arguments: [(15, 0.5), (2, 0.3)])
    func maximumDurationEndsWithACompleteFile(frameRate: Int32, limit: Double) throws {
        let movie = AVCaptureMovieFileOutput()
        movie.maxRecordedDuration = CMTime(seconds: limit, preferredTimescale: 600)
        let rig = StreamRig(frameRate: frameRate, extraOutputs: [movie])
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("short.mov")
        let watcher = RecordingWatcher(), second = RecordingWatcher()
        movie.startRecording(to: url, recordingDelegate: watcher)
        movie.startRecording(to: folder.appendingPathComponent("b.mov"), recordingDelegate: second)
        #expect((second.waitUntilFinished()?.error as? AVError)?.code == .recordingAlreadyInProgress)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b.mov").path))
        let finished = try #require(watcher.waitUntilFinished())
        let error = try #require(finished.error as? AVError)
        #expect(error.code == .maximumDurationReached)
        #expect(error.recordingSuccessfullyFinished == true)
        #expect(error.localizedDescription.contains("maximum duration"), "\(error.localizedDescription)")
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(movie.recordedDuration.seconds <= limit + 1e-6, "\(movie.recordedDuration.seconds) s")
        if ExternalTool.ffprobe.isInstalled {
            let probe = try ExternalTool.ffprobe.run(["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
            let seconds = Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            #expect(seconds > 0 && seconds <= limit + 0.002, "the file lasts \(seconds) s, the limit is \(limit) s")
            if frameRate == 2 { #expect(abs(seconds - limit) < 0.002, "cut inside the first frame: \(seconds) s") }
        }
    }

    /// A disabled video connection carries nothing to the movie output (Apple: its output consumes no data): a recording
    /// asked for then does not start — it ends at once in `didFinishRecordingTo` with `.noDataCaptured` and no file
    /// (Apple raises "No active/enabled connections") — and frames that arrive while it is disabled mid-recording are
    /// left out (the recorded length stands still), until it is enabled again.
    @Test func aDisabledConnectionIsNotRecorded() throws {
        let movie = AVCaptureMovieFileOutput()
        let rig = StreamRig(frameRate: 15, extraOutputs: [movie])
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = rig.collector.waitFor(1)
        let connection = try #require(movie.connection(with: .video))
        connection.isEnabled = false
        let refused = RecordingWatcher(), url = folder.appendingPathComponent("off.mov")
        movie.startRecording(to: url, recordingDelegate: refused)
        let ended = try #require(refused.waitUntilFinished(timeout: 10), "the recording should end at once")
        let error = try #require(ended.error as? AVError)
        #expect(error.code == .noDataCaptured && error.recordingSuccessfullyFinished == false)
        #expect(error.localizedDescription.contains("no active/enabled connections"), "\(error.localizedDescription)")
        #expect(refused.started == nil && !movie.isRecording)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no movie, no temporary file")

        connection.isEnabled = true
        let watcher = RecordingWatcher(), clip = folder.appendingPathComponent("gap.mov")
        movie.startRecording(to: clip, recordingDelegate: watcher)
        _ = rig.collector.waitFor(rig.collector.snapshot.times.count + 5)
        connection.isEnabled = false
        _ = rig.collector.waitFor(rig.collector.snapshot.times.count + 2)
        let before = movie.recordedDuration.seconds
        _ = rig.collector.waitFor(rig.collector.snapshot.times.count + 6)
        #expect(movie.recordedDuration.seconds == before, "\(movie.recordedDuration.seconds) s recorded while disabled, \(before) s before")
        connection.isEnabled = true
        _ = rig.collector.waitFor(rig.collector.snapshot.times.count + 6)
        #expect(movie.recordedDuration.seconds > before + 0.2, "enabled again: \(movie.recordedDuration.seconds) s, \(before) s before")
        movie.stopRecording()
        #expect(try #require(watcher.waitUntilFinished()).error == nil)
        #expect(FileManager.default.fileExists(atPath: clip.path))
    }

    @Test func badDestinationsAreErrorsAndLeaveNoFile() throws {
        let movie = AVCaptureMovieFileOutput()
        let rig = StreamRig(frameRate: 15, extraOutputs: [movie])
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        _ = rig.collector.waitFor(1)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = folder.appendingPathComponent("taken.mov")
        try Data("x".utf8).write(to: existing)
        for (url, code) in [(existing, AVError.Code.fileAlreadyExists),
                            (folder.appendingPathComponent("missing/clip.mov"), .noDataCaptured),
                            (URL(string: "https://example.com/clip.mov")!, .invalidSourceMedia)] {
            let watcher = RecordingWatcher()
            movie.startRecording(to: url, recordingDelegate: watcher)
            let finished = try #require(watcher.waitUntilFinished())
            #expect((finished.error as? AVError)?.code == code, "\(url)")
            #expect(!movie.isRecording)
        }
        #expect(try Data(contentsOf: existing) == Data("x".utf8), "the existing file is untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken.mov"])
    }

    @Test func notRunningIsAnError() throws {
        let movie = AVCaptureMovieFileOutput()
        let rig = StreamRig(extraOutputs: [movie])
        let watcher = RecordingWatcher()
        movie.startRecording(to: FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID()).mov"), recordingDelegate: watcher)
        #expect((watcher.waitUntilFinished()?.error as? AVError)?.code == .sessionNotRunning)
        _ = rig
    }
}
