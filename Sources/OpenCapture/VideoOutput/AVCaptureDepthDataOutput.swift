import CaptureCore
import CaptureEngine
import Depth
import Foundation

/// Streams depth maps measured alongside the running session's video (Apple's `AVCaptureDepthDataOutput`):
/// each map in the device's `activeDepthDataFormat` (type and size), stamped with the exposure start of
/// the video frame it was measured with, on the delegate's queue.
///
/// Only the depth-capable cameras take it (the dual camera, which then streams from its telephoto lens as an
/// iPhone does, and TrueDepth). Each map is a real measurement: the dual camera exposes its wide lens at the
/// same moment and matches the pair, TrueDepth decodes its dot projector's infrared frame. Maps come at most
/// every `activeDepthDataMinFrameDuration`; one that cannot be measured while the previous is still in work
/// is dropped as `.lateData` (or, with `alwaysDiscardsLateDepthData` off, waits, up to two maps, then
/// `.outOfBuffers`). On 2 cores that gives about 10 maps a second at 320×240 next to 30 fps video
/// (`opencapture-bench --only stream`).
///
/// `@unchecked Sendable`: `lock` guards every mutable field (delegate, queue, flags, the measurer, the work in
/// flight, counters, the stream subscription).
public final class AVCaptureDepthDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let lock = NSLock()
    private weak var _delegate: AVCaptureDepthDataOutputDelegate?
    private var _queue: DispatchQueue?
    private var _discardsLate = true
    private var _filtering = true
    private var subscription: (stream: FrameStream, token: UInt64)?
    private let worker = DispatchQueue(label: "OpenCapture.AVCaptureDepthDataOutput")
    /// What the stream's depth maps are measured with; made on the worker from the first frame.
    private var measurer: StreamDepthMeasurer?
    private var measurerStream: ObjectIdentifier?
    /// Maps being measured or delivered, and the earliest frame time the next map may come from.
    private var inFlight = 0
    private var nextDue = -Double.infinity
    private var delivered = 0
    private var dropped = 0
    /// A data output synchronizer's hook (see `AVCaptureOutput.attachSynchronizer`).
    private var synchronizer: SynchronizerSink?

    public override init() { super.init() }

    /// Sets the delegate (held weakly) and the serial queue its callbacks run on; nil for both stops delivery.
    /// A delegate without a queue is reported to `DeviceDiagnostics` and ignored (Apple raises).
    public func setDelegate(_ delegate: AVCaptureDepthDataOutputDelegate?, callbackQueue: DispatchQueue?) {
        guard Self.acceptsDelegate(delegate, queue: callbackQueue, what: "a depth data delegate") else { return }
        lock.withLock {
            _delegate = delegate
            _queue = callbackQueue
        }
    }

    public var delegate: AVCaptureDepthDataOutputDelegate? { lock.withLock { _delegate } }
    public var delegateCallbackQueue: DispatchQueue? { lock.withLock { _queue } }

    /// Whether a map that cannot be measured while the previous one is still in work is dropped (default true).
    public var alwaysDiscardsLateDepthData: Bool {
        get { lock.withLock { _discardsLate } }
        set { lock.withLock { _discardsLate = newValue } }
    }

    /// Whether holes are filled and edges smoothed, guided by the video frame (default true); unfiltered maps
    /// hold NaN where nothing was measured.
    public var isFilteringEnabled: Bool {
        get { lock.withLock { _filtering } }
        set { lock.withLock { _filtering = newValue } }
    }

    /// Maps delivered and dropped so far (OpenCapture addition, for measuring the stream).
    public var deliveryCounts: (delivered: Int, dropped: Int) { lock.withLock { (delivered, dropped) } }

    // MARK: Stream

    override var needsFrameStream: Bool { true }
    override var streamNeedsDepth: Bool { true }
    override var connectionMediaType: AVMediaType { .depthData }

    override func attachStream(_ stream: FrameStream?) {
        let old = lock.withLock { () -> (FrameStream, UInt64)? in
            defer { subscription = nil; measurer = nil; measurerStream = nil; nextDue = -.infinity }
            return subscription
        }
        if let old { old.0.unsubscribe(old.1) }
        guard let stream, let device = session?.deviceInput?.device,
              let selection = device.activeDepthDataSelection,
              let kind = DepthDataTypes.kind(of: selection.depthDataType) else { return }
        let delivery = DepthDelivery(kind: kind, pixelFormat: FourCC(rawValue: selection.depthDataType), size: selection.size,
                                     filtered: true, embed: false, calibration: true, matte: nil)
        let interval = max(device.activeDepthDataMinFrameDuration.seconds, stream.configuration.frameInterval)
        // One all-NaN map for every drop of this stream (AVDepthData is immutable), not one per dropped frame.
        let placeholder = Self.placeholder(delivery)
        let token = stream.subscribe { [weak self] frame in
            self?.receive(frame, from: stream, delivery: delivery, interval: interval, placeholder: placeholder)
        }
        lock.withLock { subscription = (stream, token) }
    }

    override var acceptsSynchronizer: Bool { true }

    override func attachSynchronizer(_ sink: SynchronizerSink?) {
        lock.withLock { synchronizer = sink }
    }

    private func receive(_ frame: StreamFrame, from stream: FrameStream, delivery: DepthDelivery, interval: Double,
                         placeholder: AVDepthData?) {
        lock.lock()
        let sink = synchronizer, delegate = _delegate, queue = _queue
        // A disabled connection (`isEnabled` false) carries no data to its output, as on iOS; not this frame's turn at
        // the depth rate (half a video frame of slack for clock jitter): nothing for this frame.
        guard sink != nil || (delegate != nil && queue != nil), let connection = connections.first, connection.isEnabled,
              subscription?.stream === stream, frame.time >= nextDue - frame.duration / 2 else {
            lock.unlock()
            sink?(frame.time, nil)
            return
        }
        nextDue = frame.time + interval
        let limit = _discardsLate ? 1 : 2
        let reason: DataDroppedReason? = inFlight < limit ? nil : (_discardsLate ? .lateData : .outOfBuffers)
        if reason == nil { inFlight += 1 } else { dropped += 1 }
        let filtered = _filtering
        lock.unlock()

        // Hands over a measured map, or a drop (the placeholder with its reason), to a synchronizer or to the delegate on
        // its queue, then runs `done`, which settles the counts.
        let timestamp = CMTime(seconds: frame.time, preferredTimescale: 1_000_000_000)
        let send: @Sendable (AVDepthData?, DataDroppedReason, @escaping @Sendable () -> Void) -> Void
        if let sink {
            send = { map, reason, done in
                done()
                sink(frame.time, (map ?? placeholder).map { AVCaptureSynchronizedDepthData(depthData: $0, timestamp: timestamp,
                                                                                            droppedReason: reason) })
            }
        } else if let delegate, let queue {
            let target = CallbackTarget(delegate)
            send = { [weak self] map, reason, done in
                queue.async { [weak self] in
                    guard let self else { return }
                    if let map {
                        target.value.depthDataOutput(self, didOutput: map, timestamp: timestamp, connection: connection)
                    } else if let placeholder {
                        target.value.depthDataOutput(self, didDrop: placeholder, timestamp: timestamp, connection: connection, reason: reason)
                    }
                    done()
                }
            }
        } else {
            return
        }
        if let reason {
            send(nil, reason) {}
            return
        }
        worker.async { [weak self] in
            guard let self else { return }
            switch self.measure(frame, stream: stream, delivery: delivery, filtered: filtered, connection: connection) {
            case .success(let data):
                send(data, .none) { self.lock.withLock { self.delivered += 1; self.inFlight -= 1 } }
            case .failure(let error):
                DeviceDiagnostics.report(error)
                send(nil, .discontinuity) { self.lock.withLock { self.dropped += 1; self.inFlight -= 1 } }
            }
        }
    }

    /// Measures `frame`'s map (on the worker) as delivered: in the delivery's type and size, mirrored as the
    /// connection mirrors.
    private func measure(_ frame: StreamFrame, stream: FrameStream, delivery: DepthDelivery, filtered: Bool,
                         connection: AVCaptureConnection) -> Result<AVDepthData, Error> {
        Result {
            let measurer = try measurer(for: stream, device: stream.configuration.device, delivery: delivery, frame: frame)
            let map = try measurer.measure(frame, filtered: filtered)
            guard let data = AVDepthData(depthMap: map, pixelFormat: delivery.pixelFormat.rawValue) else {
                throw DepthDataError.unsupportedDepthDataType(delivery.pixelFormat.rawValue)
            }
            // A mirrored connection (the front camera's, by default) mirrors its maps as the video data output
            // mirrors its frames, so the two stay registered: about the vertical axis of the picture as shown.
            guard connection.isVideoMirrored else { return data }
            let acrossRows = PixelBuffer.mirrorsTopToBottom(turnedBy: Int(connection.videoRotationAngle))
            return data.applyingExifOrientation(acrossRows ? .downMirrored : .upMirrored)
        }
    }

    /// The stream's measurer, made from its first measured frame (on the worker: preparing the second eye's
    /// render takes a while, and frames arriving meanwhile are dropped as late).
    private func measurer(for stream: FrameStream, device: DeviceSnapshot, delivery: DepthDelivery,
                          frame: StreamFrame) throws -> StreamDepthMeasurer {
        let id = ObjectIdentifier(stream)
        if let existing = lock.withLock({ measurerStream == id ? measurer : nil }) { return existing }
        guard let made = StreamDepthMeasurer(device: device, delivery: delivery, frameExposure: frame.exposure) else {
            throw DepthError.noData("\(device.name) does not measure depth")
        }
        lock.withLock {
            if subscription?.stream === stream { measurer = made; measurerStream = id }
        }
        return made
    }

    /// A map of NaN (nothing measured) in the delivered size and type, for `didDrop`.
    private static func placeholder(_ delivery: DepthDelivery) -> AVDepthData? {
        let values = Raster<Float>(width: delivery.size.width, height: delivery.size.height, channels: 1,
                                   storage: [Float](repeating: .nan, count: delivery.size.pixelCount))
        let map = DepthMap(values: values, kind: delivery.kind, accuracy: .relative, quality: .low, isFiltered: false)
        return AVDepthData(depthMap: map, pixelFormat: delivery.pixelFormat.rawValue)
    }
}
