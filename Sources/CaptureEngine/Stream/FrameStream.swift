import CameraSimulation
import CaptureCore
import Foundation

/// A running session's continuous stream: exposes and develops frames at the configured rate in real
/// time, keeps the last `history` seconds in a ring, and hands each new frame to its subscribers.
///
/// Each frame is a real sensor exposure of the device's cached scene render (`FrameSource.capture`):
/// its own start time on the hand-shake trajectory (so the camera moves from frame to frame and blurs
/// within one), its own auto exposure, shot and read noise, then the video ISP. What is approximated:
/// the scene render is static apart from the camera's motion, and the frames are made on this machine's CPU, which
/// may fall behind: a frame not made in its slot is made late (with its own slot's exposure, as a sensor's frame
/// waits for a busy ISP) while the stream is less than `catchUpLimit` behind and has skipped nothing for
/// `calmBeforeCatchingUp` — a still's processing taking the cores for a moment leaves no hole in a Live Photo movie —
/// and otherwise skipped (counted in `skippedFrames`), as a sensor running behind drops frames, so a stream that cannot
/// keep up drops frames evenly instead of lagging. Slots a Live Photo's movie needs are made however late
/// (`makeEveryFrame(through:)`): a phone's ring of frames has no holes, whatever its ISP is doing.
///
/// `@unchecked Sendable`: `condition` guards every mutable field (ring, subscribers, run state, counters).
package final class FrameStream: @unchecked Sendable {
    package let configuration: StreamConfiguration
    private let condition = NSCondition()
    private var ring: [StreamFrame] = []
    private var subscribers: [UInt64: @Sendable (StreamFrame) -> Void] = [:]
    private var nextToken: UInt64 = 1
    private var state: RunState = .idle
    private var produced = 0
    private var firstSlot: Double?
    private var skipped = 0
    /// Session seconds up to which every slot is made, however late (`makeEveryFrame(through:)`).
    private var requiredThrough = -Double.infinity
    private enum RunState { case idle, running, stopping, stopped }

    /// How far behind its frame clock the stream may run while it makes the frames it missed (seconds).
    package static let catchUpLimit = 0.4
    /// How long the stream must have skipped nothing before it catches up again (seconds): a stream that cannot keep
    /// up at all skips instead of running `catchUpLimit` behind.
    static let calmBeforeCatchingUp = 1.0

    package init(_ configuration: StreamConfiguration) {
        self.configuration = configuration
    }

    /// Seconds on the session clock now.
    package var now: Double { FrameStream.seconds(since: configuration.clockOrigin) }

    package static func seconds(since origin: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1e9
    }

    /// Starts producing on a thread of its own; returns at once. A stopped stream does not restart.
    package func start() {
        condition.lock()
        guard state == .idle else { condition.unlock(); return }
        state = .running
        condition.unlock()
        let thread = Thread { [self] in run() }
        thread.name = "OpenCapture.FrameStream"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops producing and waits for the frame in progress; wakes everyone waiting for frames.
    package func stop() {
        condition.lock()
        if state == .running { state = .stopping }
        while state == .stopping { condition.wait() }
        if state == .idle { state = .stopped }
        condition.broadcast()
        condition.unlock()
    }

    package var isRunning: Bool { condition.withLock { state == .running } }

    /// Session seconds at which frame 0's slot began; nil until production starts.
    package var startTime: Double? { condition.withLock { firstSlot } }

    /// Frames made so far, and frame slots skipped because the stream had fallen behind (see the type's documentation).
    package var producedFrames: Int { condition.withLock { produced } }
    package var skippedFrames: Int { condition.withLock { skipped } }

    /// Makes every slot up to session time `time`, however far behind the stream falls (a Live Photo's post-roll);
    /// later slots follow the usual catch-up rule.
    package func makeEveryFrame(through time: Double) {
        condition.withLock { requiredThrough = max(requiredThrough, time) }
    }

    /// Calls `handler` with every new frame, on the stream's thread (hand the frame to a queue and return).
    package func subscribe(_ handler: @escaping @Sendable (StreamFrame) -> Void) -> UInt64 {
        condition.withLock {
            let token = nextToken
            nextToken += 1
            subscribers[token] = handler
            return token
        }
    }

    package func unsubscribe(_ token: UInt64) {
        condition.withLock { _ = subscribers.removeValue(forKey: token) }
    }

    /// The kept frames whose exposure starts in `range` (session seconds), oldest first, in `420v` only.
    package func frames(in range: ClosedRange<Double>) -> [StreamFrame] {
        condition.withLock { ring.filter { range.contains($0.time) } }
    }

    /// The newest frame, if any.
    package var latestFrame: StreamFrame? { condition.withLock { ring.last } }

    /// Blocks until a frame starting at or after `time` exists, the stream stops, or `timeout` seconds pass.
    /// Returns whether such a frame exists.
    @discardableResult
    package func waitForFrame(startingAt time: Double, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while (ring.last?.time ?? -.infinity) < time && state == .running {
            if !condition.wait(until: deadline) { break }
        }
        return (ring.last?.time ?? -.infinity) >= time
    }

    // MARK: Production

    private func run() {
        let config = configuration
        let device = config.device, source = device.source
        let readout = config.readoutSize
        source.prepare(size: readout)
        if let focus = device.focus?.distance, let camera = source as? SimulatedCamera {
            camera.prepare(size: readout, focusDistance: focus)
        }
        let settings = VideoFrameDeveloper.settings(colorSpace: device.colorSpace)
        let interval = config.frameInterval
        let start = now
        condition.withLock { firstSlot = start }
        var index = 0
        var lastSkip = -Double.infinity
        var metered = device.currentExposure(size: readout)
        while true {
            if condition.withLock({ state != .running }) { break }
            // Pace to the frame clock. Behind by a whole frame or more: catch up after a calm spell, else skip to
            // the current slot.
            let scheduled = start + Double(index) * interval
            let current = now
            if current < scheduled {
                Thread.sleep(forTimeInterval: scheduled - current)
            } else if current - scheduled >= interval, scheduled > condition.withLock({ requiredThrough }),
                      current - scheduled >= Self.catchUpLimit || current - lastSkip < Self.calmBeforeCatchingUp {
                let behind = Int((current - start) / interval) - index
                condition.withLock { skipped += behind }
                index += behind
                lastSkip = current
                continue
            }
            if index % 15 == 0, case .automatic = device.exposure {
                metered = device.currentExposure(size: readout)
            }
            let exposure = StreamExposure.make(metered: metered, interval: interval, readout: readout, module: device.module,
                                               time: start + Double(index) * interval, index: index, device: device)
            let raw = source.capture(exposure, centerRows: config.size.height)
            guard let (pixels, others) = VideoFrameDeveloper.develop(raw, size: config.size, settings: settings,
                                                                     extra: config.extraPixelFormats) else { break }
            let frame = StreamFrame(index: index, time: exposure.startTime, duration: interval, pixelBuffer: pixels,
                                    otherFormats: others, exposure: exposure, raw: config.keepsReadout ? raw : nil)
            let handlers = condition.withLock { () -> [@Sendable (StreamFrame) -> Void] in
                // The history keeps the 420v frame only (what movies and Live Photos encode); other formats and the
                // sensor readout go to subscribers once (a BGRA copy is 2.7× the size of the 420v one).
                var kept = frame
                kept.otherFormats = [:]
                kept.raw = nil
                ring.append(kept)
                let oldest = frame.time - config.history
                if let keep = ring.firstIndex(where: { $0.time >= oldest }), keep > 0 { ring.removeFirst(keep) }
                produced += 1
                condition.broadcast()
                return Array(subscribers.values)
            }
            for handler in handlers { handler(frame) }
            index += 1
        }
        condition.withLock {
            state = .stopped
            condition.broadcast()
        }
    }
}
