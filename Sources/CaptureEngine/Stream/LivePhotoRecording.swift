import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats

/// Records one Live Photo movie while the stream runs: on creation it takes the frames of the last
/// `preRoll` seconds from the stream's history and starts encoding them, then encodes each new frame
/// until `postRoll` seconds after the still (or the suspension), so only the encoder's state is held,
/// not three seconds of frames. Frames go in at 15 fps (every other frame of a 30 fps stream) or the
/// stream's rate if lower. The movie is written under a temporary name, given its pairing atoms
/// (`LivePhotoMovieAtoms`) and renamed into place.
///
/// With auto-trimming, the phone's gyroscope is read over each frame's slot as the frame arrives (never ahead of
/// the stream): the pre-roll starts after the last swing before the still, and the recording ends at the first
/// frame after the still during which the phone swings (`LivePhotoTrimming`).
///
/// `@unchecked Sendable`: `lock` guards every mutable field (writer, subscription, times, state) except
/// `audioSamplesWritten`, which only the serial `queue` touches.
package final class LivePhotoRecording: @unchecked Sendable {
    private let delivery: LivePhotoDelivery
    private let queue = DispatchQueue(label: "OpenCapture.LivePhotoRecording")
    private let lock = NSCondition()
    private var writer: MovieWriter?
    private var token: UInt64?
    private var firstTime: Double?
    private var lastIndex = Int.min
    /// The newest frame given to the encoder (held to the end of the post-roll if the stream fell behind).
    private var lastFrame: StreamFrame?
    private var frameDuration = 0.0
    private var recordingEnded = false
    private var failure: (any Error)?
    private let step: Int
    private let temporaryURL: URL
    private var audioSamplesWritten = 0
    /// Where auto-trimming ended the movie: the start of the first frame the phone swung in after the still.
    private var trimmedEnd: Double?
    /// The stream stopped (the session stopped) before the post-roll ended: the movie ends with its last frame.
    private var streamStopped = false

    /// Starts recording (pre-roll frames included); fails only later, through `finish`.
    package init(_ delivery: LivePhotoDelivery) {
        self.delivery = delivery
        let stream = delivery.stream
        step = stream.configuration.frameRate >= 29 ? 2 : 1
        temporaryURL = FilePlacement.temporaryURL(beside: delivery.url, tag: "unpaired", pathExtension: "mov")
        TemporaryFiles.register(temporaryURL)
        let size = stream.configuration.size
        var settings = MovieSettings(codec: delivery.codec, width: size.width, height: size.height,
                                     frameRate: Int((stream.configuration.frameRate / Double(step)).rounded()))
        settings.colorSpace = stream.configuration.device.colorSpace
        settings.rotation = delivery.rotation
        settings.mirrored = delivery.mirrored
        settings.creationDate = delivery.creationDate
        settings.threads = 1
        if delivery.sound != nil { settings.audio = (RoomSound.sampleRate, 1) }
        do { writer = try MovieWriter(url: temporaryURL, settings: settings) } catch { failure = error }
        // The post-roll's frames are made however busy the machine gets (the still's own processing, a first render).
        stream.makeEveryFrame(through: delivery.stillTime + delivery.postRoll)
        var past = stream.frames(in: (delivery.stillTime - delivery.preRoll)...delivery.stillTime)
        if delivery.autoTrims, let last = past.lastIndex(where: { swings(during: $0) }) {
            past.removeSubrange(...last)
        }
        for frame in past { accept(frame) }
        if failure == nil {
            let token = stream.subscribe { [weak self] frame in self?.accept(frame) }
            lock.withLock { self.token = token }
        }
    }

    /// When the recording part ends: the post-roll's end, or the suspension or the trim if earlier.
    private var endTime: Double { endTime(trimmed: lock.withLock { trimmedEnd }) }

    private func endTime(trimmed: Double?) -> Double {
        let planned = delivery.stillTime + delivery.postRoll
        guard let cut = [delivery.suspension(), trimmed].compactMap({ $0 }).min() else { return planned }
        return max(delivery.stillTime, min(planned, cut))
    }

    /// Whether the phone swings during `frame`'s slot, as its gyroscope reads.
    private func swings(during frame: StreamFrame) -> Bool {
        let device = delivery.stream.configuration.device
        let made = device.swings()
        return LivePhotoTrimming.swings(from: frame.time, to: frame.time + frame.duration) {
            device.source.angularVelocity(at: $0, swings: made)
        }
    }

    private func accept(_ frame: StreamFrame) {
        if delivery.autoTrims, frame.time > delivery.stillTime, lock.withLock({ trimmedEnd == nil && !recordingEnded }),
           swings(during: frame) {
            lock.withLock { trimmedEnd = frame.time }
        }
        lock.lock()
        guard !recordingEnded, failure == nil, frame.index > lastIndex else { lock.unlock(); return }
        // A trimmed movie ends before the frame the phone swung in; otherwise after the last frame that starts by the end.
        if frame.time > endTime(trimmed: trimmedEnd) || trimmedEnd.map({ frame.time >= $0 }) == true {
            lock.unlock()
            endRecording()
            return
        }
        guard frame.index % step == 0 else { lock.unlock(); return }
        lastIndex = frame.index
        lastFrame = frame
        let first = firstTime ?? frame.time
        firstTime = first
        frameDuration = frame.duration * Double(step)
        let slot = frameDuration
        lock.unlock()
        queue.async { [self] in
            guard let writer = lock.withLock({ self.writer }) else { return }
            do {
                try writer.append(frame.pixelBuffer, at: frame.time - first)
                if let sound = delivery.sound {
                    try StreamRecorder.appendSound(sound, to: writer, movieStart: first, through: frame.time + slot - first,
                                                   written: &audioSamplesWritten)
                }
            } catch {
                lock.withLock { if failure == nil { failure = error } }
            }
        }
    }

    private func endRecording() {
        let token = lock.withLock { () -> UInt64? in
            recordingEnded = true
            lock.broadcast()
            defer { self.token = nil }
            return self.token
        }
        if let token { delivery.stream.unsubscribe(token) }
    }

    /// Blocks until the post-roll (or the suspension) has passed or the stream stopped.
    package func waitUntilRecorded() {
        while true {
            if lock.withLock({ recordingEnded || failure != nil }) { break }
            let end = endTime
            if delivery.stream.waitForFrame(startingAt: end + 1e-6, timeout: 0.05) || !delivery.stream.isRunning {
                if !delivery.stream.isRunning { lock.withLock { streamStopped = true } }
                if delivery.stream.now >= end || !delivery.stream.isRunning { endRecording(); break }
            }
        }
    }

    /// Finishes the movie (encoder flush, pairing atoms, rename into place) and describes it. When the stream
    /// fell behind (a busy CPU skips frames), the last frame is held to the end of the post-roll, so the movie
    /// still spans the moment it covers; when the stream stopped (the session stopped) the movie ends with its last
    /// frame, as a suspension cuts it: nothing is made up after the camera stopped.
    package func finish() -> LivePhotoMovie {
        endRecording()
        let end = endTime
        return queue.sync {
            let (writer, first, held, duration, error, stopped) = lock.withLock {
                () -> (MovieWriter?, Double?, StreamFrame?, Double, (any Error)?, Bool) in
                defer { self.writer = nil }
                return (self.writer, firstTime, lastFrame, frameDuration, failure, streamStopped)
            }
            var last = held?.time
            if error == nil, !stopped, let writer, let first, let held, end - duration > held.time + duration / 2 {
                let holdTime = end - duration
                if (try? writer.append(held.pixelBuffer, at: holdTime - first)) != nil {
                    if let sound = delivery.sound {
                        try? StreamRecorder.appendSound(sound, to: writer, movieStart: first, through: end - first,
                                                        written: &audioSamplesWritten)
                    }
                    last = holdTime
                }
            }
            let url = delivery.url
            guard error == nil, let writer, let first, let last, writer.frameCount > 0 else {
                writer?.cancel()
                return LivePhotoMovie(url: url, duration: 0, photoDisplayTime: 0,
                                      error: error ?? MediaFormatError.writeFailed("\(url.path): no frames were recorded"))
            }
            let length = last + duration - first
            let display = min(max(0, delivery.stillTime - first), length)
            do {
                try writer.finish()
                defer { try? FileManager.default.removeItem(at: temporaryURL) }
                let movie = try Data(contentsOf: temporaryURL)
                let metadata = [(key: LivePhotoMovieAtoms.contentIdentifierKey, value: delivery.contentIdentifier)]
                    + delivery.metadata.map { (key: $0.key, value: $0.value) }
                let paired = try LivePhotoMovieAtoms.pair(movie, metadata: metadata, stillImageTime: display)
                // Never over a file already at the URL (another capture's movie): the movie fails instead.
                try FilePlacement.write(paired, to: url, replacing: false)
                return LivePhotoMovie(url: url, duration: length, photoDisplayTime: display, error: nil)
            } catch {
                return LivePhotoMovie(url: url, duration: 0, photoDisplayTime: 0, error: error)
            }
        }
    }
}
