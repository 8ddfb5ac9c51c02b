import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats

/// Records a running stream into a movie: subscribes to the stream, encodes each new frame on a serial
/// queue of its own, and finishes the file (temporary name, then rename) when stopped or when the maximum
/// duration is reached. At most `maxPendingFrames` frames wait for the
/// encoder; beyond that new frames are skipped (counted in `skippedFrames`), so memory stays flat. A skipped frame
/// leaves the one before on screen longer; at a maximum duration the last frame recorded is held to the limit, so
/// the movie lasts the maximum duration even when the frames before it were skipped (the sound runs to the same end).
///
/// `@unchecked Sendable`: `lock` guards every mutable field (the writer, the subscription, the times
/// and counters, the finished flags) except `audioSamplesWritten`, which only the serial `encoder` queue touches.
package final class StreamRecorder: @unchecked Sendable {
    /// How a recording ended.
    package enum Ending: Sendable {
        case stopped
        case maximumDuration
        case failed(any Error)
    }

    package let url: URL
    private let stream: FrameStream
    private let maxDuration: Double?
    /// What the microphone hears, when the session has one: an AAC track in sync with the frames.
    private let sound: RoomSound?
    private var audioSamplesWritten = 0
    /// Asked for each frame as it arrives: false leaves the frame out (its output's connection is switched off).
    private let takesFrame: @Sendable () -> Bool
    private let onStart: @Sendable (Double) -> Void
    private let onFinish: @Sendable (_ duration: Double, _ ending: Ending, _ error: (any Error)?) -> Void
    /// The serial queue frames are encoded on (internal: a test holds it up to make the recorder skip frames).
    let encoder = DispatchQueue(label: "OpenCapture.StreamRecorder")
    private let lock = NSLock()
    private var writer: MovieWriter?
    private var token: UInt64?
    private var firstTime: Double?
    private var lastTime: Double?
    private var frameDuration: Double = 0
    private var pending = 0
    private var skipped = 0
    private var ended = false
    /// Whether the recording ended at its maximum duration (it then lasts exactly that long).
    private var reachedLimit = false
    package static let maxPendingFrames = 8

    /// Opens the movie now (throws `MediaFormatError` when the destination cannot be written). Frames for which
    /// `takesFrame` answers false are left out (the movie holds the frame before across them; the sound goes on).
    package init(stream: FrameStream, url: URL, settings: MovieSettings, maxDuration: Double?, sound: RoomSound? = nil,
                 takesFrame: @escaping @Sendable () -> Bool = { true },
                 onStart: @escaping @Sendable (Double) -> Void,
                 onFinish: @escaping @Sendable (Double, Ending, (any Error)?) -> Void) throws {
        self.stream = stream
        self.url = url
        self.maxDuration = maxDuration.flatMap { $0 > 0 ? $0 : nil }
        self.takesFrame = takesFrame
        self.onStart = onStart
        self.onFinish = onFinish
        self.sound = sound
        var settings = settings
        if sound != nil { settings.audio = (RoomSound.sampleRate, 1) }
        writer = try MovieWriter(url: url, settings: settings)
    }

    /// Starts taking frames (the first frame after this call is the movie's first).
    package func start() {
        let token = stream.subscribe { [weak self] frame in self?.receive(frame) }
        lock.withLock { self.token = token }
    }

    /// Seconds recorded so far (first frame's start to the last frame's end, within the maximum duration; the maximum
    /// duration once the recording has reached it).
    package var recordedDuration: Double { lock.withLock { recordedLocked } }

    /// `recordedDuration`, with `lock` held: a maximum duration inside the last frame's interval cuts it there, and
    /// one reached after the last frames were skipped holds the last frame recorded until then.
    private var recordedLocked: Double {
        if reachedLimit, firstTime != nil, let maxDuration { return maxDuration }
        return min(firstTime.map { (lastTime ?? $0) + frameDuration - $0 } ?? 0, maxDuration ?? .infinity)
    }

    package var skippedFrames: Int { lock.withLock { skipped } }

    /// Stops taking frames and finishes the movie; `onFinish` follows once the file is in place.
    package func stop() { end(.stopped) }

    /// Takes one of the stream's frames (internal: a test hands frames in itself).
    func receive(_ frame: StreamFrame) {
        guard takesFrame() else { return }
        lock.lock()
        guard !ended else { lock.unlock(); return }
        if let first = firstTime, let limit = maxDuration, frame.time + frame.duration - first > limit + 1e-6 {
            lock.unlock()
            end(.maximumDuration)
            return
        }
        guard pending < Self.maxPendingFrames else { skipped += 1; lock.unlock(); return }
        let isFirst = firstTime == nil
        if isFirst { firstTime = frame.time }
        lastTime = frame.time
        frameDuration = frame.duration
        pending += 1
        let start = firstTime!
        lock.unlock()
        if isFirst { onStart(frame.time) }
        encoder.async { [self] in
            let writer = lock.withLock { () -> MovieWriter? in pending -= 1; return self.writer }
            do {
                try writer?.append(frame.pixelBuffer, at: frame.time - start)
                if let writer, let sound {
                    try Self.appendSound(sound, to: writer, movieStart: start,
                                         through: min(frame.time + frame.duration - start, maxDuration ?? .infinity),
                                         written: &audioSamplesWritten)
                }
            } catch {
                end(.failed(error))
            }
        }
    }

    /// Appends the room's sound from where the movie's audio stops to `through` seconds into the movie.
    static func appendSound(_ sound: RoomSound, to writer: MovieWriter, movieStart: Double, through: Double,
                            written: inout Int) throws {
        let rate = Double(RoomSound.sampleRate)
        let target = Int((through * rate).rounded())
        guard target > written else { return }
        let first = Int((movieStart * rate).rounded()) + written
        try writer.appendAudio(sound.samples(from: first, count: target - written))
        written = target
    }

    private func end(_ ending: Ending) {
        let token = lock.withLock { () -> UInt64?? in
            if ended { return nil }
            ended = true
            if case .maximumDuration = ending { reachedLimit = true }
            defer { self.token = nil }
            return .some(self.token)
        }
        guard let token else { return }
        if let token { stream.unsubscribe(token) }
        encoder.async { [self] in
            let (writer, duration, frames, start) = lock.withLock { () -> (MovieWriter?, Double, Int, Double?) in
                defer { self.writer = nil }
                return (self.writer, recordedLocked, self.writer?.frameCount ?? 0, firstTime)
            }
            var error: (any Error)?
            if case .failed(let reason) = ending { error = reason }
            if let writer {
                if error != nil || frames == 0 {
                    writer.cancel()
                    if error == nil { error = MediaFormatError.writeFailed("\(url.path): no frames were recorded") }
                } else {
                    do {
                        // The sound goes on to the movie's end (past the last frame's, where the limit holds it).
                        if let sound, let start {
                            try Self.appendSound(sound, to: writer, movieStart: start, through: duration, written: &audioSamplesWritten)
                        }
                        try writer.finish(endingAt: duration)
                    } catch let failure {
                        writer.cancel()
                        error = failure
                    }
                }
            }
            onFinish(duration, ending, error)
        }
    }
}
