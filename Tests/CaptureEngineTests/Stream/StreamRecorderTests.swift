import CameraSimulation
import CaptureCore
@testable import CaptureEngine
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing

/// Recordings fed frame by frame while the encoder is held up: which frames the recorder skips (more than
/// `maxPendingFrames` waiting) is decided by the test, not by this machine's speed.
@Suite struct StreamRecorderTests {
    static let frameRate = 30.0, size = Size(width: 64, height: 48)

    /// What `onFinish` reported.
    final class Outcome: @unchecked Sendable {
        /// Guards `duration`, `ending` and `error`; signalled once they are set.
        private let condition = NSCondition()
        private var duration: Double?
        private var ending: StreamRecorder.Ending?
        private var error: (any Error)?

        func finish(_ duration: Double, _ ending: StreamRecorder.Ending, _ error: (any Error)?) {
            condition.withLock {
                (self.duration, self.ending, self.error) = (duration, ending, error)
                condition.broadcast()
            }
        }

        /// The reported duration, ending and error, once reported (nil after `timeout` seconds).
        func wait(timeout: Double = 60) -> (duration: Double, ending: StreamRecorder.Ending, error: (any Error)?)? {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while duration == nil { if !condition.wait(until: deadline) { break } }
            guard let duration, let ending else { return nil }
            return (duration, ending, error)
        }
    }

    /// A recorder on a stream that is never started (the test hands it frames), writing `url`.
    static func recorder(_ url: URL, maxDuration: Double?, sound: RoomSound? = nil, outcome: Outcome) throws -> StreamRecorder {
        let module = CameraModule.backWide
        let device = DeviceSnapshot(module: module, source: SimulatedCamera(module: module, scene: .livingRoom(lighting: .indoor), seed: 7),
                                    name: "Back Camera", exposure: .automatic, bias: 0, seed: 7, colorSpace: .sRGB)
        let stream = FrameStream(StreamConfiguration(device: device, size: size, frameRate: frameRate, clockOrigin: 0))
        var settings = MovieSettings(codec: .h264, width: size.width, height: size.height, frameRate: Int(frameRate))
        settings.preset = "ultrafast"
        let recorder = try StreamRecorder(stream: stream, url: url, settings: settings, maxDuration: maxDuration, sound: sound,
                                          onStart: { _ in }, onFinish: { outcome.finish($0, $1, $2) })
        recorder.start()
        return recorder
    }

    /// Frame `index` of a 30 fps stream that started 5 s into the session, each frame a different grey.
    static func frame(_ index: Int) throws -> StreamFrame {
        let pixels = try #require(PixelBuffer(width: size.width, height: size.height, pixelFormat: "420v"))
        let luma = pixels.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self)
        luma.update(repeating: UInt8(16 + index * 7 % 200), count: pixels.planes[0].bytesPerRow * size.height)
        let chroma = pixels.baseAddress(ofPlane: 1)!.assumingMemoryBound(to: UInt8.self)
        chroma.update(repeating: 128, count: pixels.planes[1].bytesPerRow * pixels.planes[1].height)
        let time = 5 + Double(index) / frameRate
        return StreamFrame(index: index, time: time, duration: 1 / frameRate, pixelBuffer: pixels,
                           exposure: SensorExposure(size: size, duration: 1 / 60, iso: 100, startTime: time))
    }

    /// Holds the recorder's encoder until the returned semaphore is signalled: frames given meanwhile wait for it, and
    /// past `maxPendingFrames` of them the rest are skipped.
    static func holdEncoder(of recorder: StreamRecorder) -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        recorder.encoder.async { gate.wait() }
        return gate
    }

    /// The encoder falls behind and the frames after the first 8 are skipped until the frame that passes the 1 s limit
    /// ends the recording: the movie still lasts exactly 1 s, its last frame held through the skipped tail (as a gap
    /// in the middle is), and says so: a duration of the limit with 8 frames in it, 22 skipped.
    @Test func aMaximumDurationEndsTheMovieAtTheLimitThoughTheTailWasSkipped() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tail.mov"), outcome = Outcome()
        let recorder = try Self.recorder(url, maxDuration: 1, outcome: outcome)
        let gate = Self.holdEncoder(of: recorder)
        for index in 0...30 { recorder.receive(try Self.frame(index)) }   // frame 30 ends 1.033 s in: past the limit
        gate.signal()
        let finished = try #require(outcome.wait(), "the recording should finish")
        #expect(finished.error == nil)
        guard case .maximumDuration = finished.ending else { Issue.record("ended \(finished.ending)"); return }
        #expect(recorder.skippedFrames == 30 - StreamRecorder.maxPendingFrames)
        #expect(abs(finished.duration - 1) < 1e-9, "reported \(finished.duration) s")
        let movie = try QuickTimeMovie.parse(Data(contentsOf: url))
        #expect(abs(movie.duration - 1) < 0.002, "the movie lasts \(movie.duration) s")
        #expect(movie.videoTrack?.sampleCount == StreamRecorder.maxPendingFrames)
    }

    /// With the microphone, the sound goes on to the limit too (AAC frames are 1024 samples: within one of them).
    @Test(.enabled(if: ExternalTool.ffprobe.isInstalled, "needs ffprobe for the tracks' lengths"))
    func theSoundRunsToTheLimitWithTheHeldFrame() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("sound.mov"), outcome = Outcome()
        let recorder = try Self.recorder(url, maxDuration: 1, sound: RoomSound(seed: 3), outcome: outcome)
        let gate = Self.holdEncoder(of: recorder)
        for index in 0...30 { recorder.receive(try Self.frame(index)) }
        gate.signal()
        let finished = try #require(outcome.wait(), "the recording should finish")
        #expect(finished.error == nil)
        let probe = try ExternalTool.ffprobe.run(["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", url.path])
        var lengths: [String: Double] = [:]
        for line in probe.output.split(separator: "\n") {
            let fields = line.split(separator: ",")
            if fields.count == 2, let seconds = Double(fields[1]) { lengths[String(fields[0])] = seconds }
        }
        let video = try #require(lengths["video"], "\(probe.output)"), audio = try #require(lengths["audio"], "\(probe.output)")
        #expect(abs(video - 1) < 0.002, "video \(video) s")
        #expect(abs(audio - 1) < 1024 / Double(RoomSound.sampleRate), "audio \(audio) s")
    }

    /// Stopped by the user, a recording ends with its last recorded frame, as before: the frames skipped behind the
    /// encoder at the end were never promised.
    @Test func aStoppedRecordingEndsWithItsLastFrame() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("stopped.mov"), outcome = Outcome()
        let recorder = try Self.recorder(url, maxDuration: nil, outcome: outcome)
        let gate = Self.holdEncoder(of: recorder)
        for index in 0..<20 { recorder.receive(try Self.frame(index)) }
        recorder.stop()
        gate.signal()
        let finished = try #require(outcome.wait(), "the recording should finish")
        #expect(finished.error == nil)
        guard case .stopped = finished.ending else { Issue.record("ended \(finished.ending)"); return }
        let recorded = Double(StreamRecorder.maxPendingFrames) / Self.frameRate
        #expect(abs(finished.duration - recorded) < 1e-9, "reported \(finished.duration) s")
        let movie = try QuickTimeMovie.parse(Data(contentsOf: url))
        #expect(abs(movie.duration - recorded) < 0.002, "the movie lasts \(movie.duration) s")
        #expect(recorder.skippedFrames == 20 - StreamRecorder.maxPendingFrames)
    }
}
