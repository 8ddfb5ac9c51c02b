import CaptureCore
import CaptureEngine
import Foundation

/// Delivers the running session's frames to a delegate (Apple's `AVCaptureVideoDataOutput`): each
/// frame as a `CMSampleBuffer` holding a `CVPixelBuffer` in the pixel format of `videoSettings`,
/// stamped with its exposure start on the session clock, on the delegate's queue.
///
/// While a session with this output runs, the camera streams at the device's
/// `activeVideoMinFrameDuration` (30 fps by default) at the active format's size (1440×1080 for the
/// photo-sized formats, as an iPhone's preview).
///
/// `@unchecked Sendable`: `lock` guards every mutable field (delegate, queue, settings, discard flag,
/// the frames in flight, the stream subscription).
public final class AVCaptureVideoDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let lock = NSLock()
    private weak var _delegate: AVCaptureVideoDataOutputSampleBufferDelegate?
    private var _queue: DispatchQueue?
    private var _pixelFormat: FourCC = "420v"
    private var _discardsLate = true
    /// Frames handed to the delegate's queue and not yet returned by it.
    private var inFlight = 0
    private var subscription: (stream: FrameStream, token: UInt64)?
    /// Frames handed to the delegate and frames dropped because it was busy (for tests and benchmarks).
    private var delivered = 0
    private var dropped = 0
    /// A data output synchronizer's hook (see `AVCaptureOutput.attachSynchronizer`).
    private var synchronizer: SynchronizerSink?

    public override init() { super.init() }

    /// Sets the delegate (held weakly) and the serial queue its callbacks run on; nil for both stops delivery.
    /// A delegate without a queue is reported to `DeviceDiagnostics` and ignored (Apple raises).
    public func setSampleBufferDelegate(_ sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate?,
                                        queue sampleBufferCallbackQueue: DispatchQueue?) {
        guard Self.acceptsDelegate(sampleBufferDelegate, queue: sampleBufferCallbackQueue, what: "a sample buffer delegate") else { return }
        lock.withLock {
            _delegate = sampleBufferDelegate
            _queue = sampleBufferCallbackQueue
        }
    }

    public var sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate? { lock.withLock { _delegate } }
    public var sampleBufferCallbackQueue: DispatchQueue? { lock.withLock { _queue } }

    /// Pixel formats frames can be delivered in: `420v` (the default, as on iPhones), `420f` and `BGRA`.
    public var availableVideoPixelFormatTypes: [OSType] {
        [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA]
    }

    /// Compressed delivery is not offered (as on iOS).
    public var availableVideoCodecTypes: [AVVideoCodecType] { [] }

    /// The delivery format: `[kCVPixelBufferPixelFormatTypeKey: OSType]`. Setting a pixel format not in
    /// `availableVideoPixelFormatTypes` is reported and ignored (Apple raises); nil or an empty dictionary
    /// restores the default. Width and height keys are ignored: frames come at the format's size.
    public var videoSettings: [String: Any]! {
        get { [kCVPixelBufferPixelFormatTypeKey as String: lock.withLock { _pixelFormat.rawValue }] }
        set {
            guard let value = newValue?[kCVPixelBufferPixelFormatTypeKey as String] else {
                lock.withLock { _pixelFormat = "420v" }
                return
            }
            guard let code = SettingsValue.osType(value), availableVideoPixelFormatTypes.contains(code) else {
                DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("video data pixel format \(value)"))
                return
            }
            lock.withLock { _pixelFormat = FourCC(rawValue: code) }
            session?.outputNeedsStreamChange()
        }
    }

    /// Whether frames that arrive while the delegate is still busy are dropped (default true, and then
    /// `didDrop` is called for each) or queued behind it — up to `queuedFrameLimit` frames in flight, as a phone's
    /// buffer pool runs out: later ones are dropped too, so a slow delegate costs bounded memory and latency.
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { lock.withLock { _discardsLate } }
        set { lock.withLock { _discardsLate = newValue } }
    }

    /// Frames a delegate may hold queued or in hand when late frames are kept (the buffer pool's size here).
    static let queuedFrameLimit = 4

    /// Frames delivered and dropped so far (OpenCapture addition, for measuring the stream).
    public var deliveryCounts: (delivered: Int, dropped: Int) { lock.withLock { (delivered, dropped) } }

    // MARK: Stream

    override var streamPixelFormats: Set<FourCC> { [lock.withLock { _pixelFormat }] }  // 420v costs nothing extra
    override var needsFrameStream: Bool { true }

    override func attachStream(_ stream: FrameStream?) {
        let old = lock.withLock { () -> (FrameStream, UInt64)? in
            defer { subscription = nil }
            return subscription
        }
        if let old { old.0.unsubscribe(old.1) }
        guard let stream else { return }
        let token = stream.subscribe { [weak self] frame in self?.receive(frame) }
        lock.withLock { subscription = (stream, token) }
    }

    override var acceptsSynchronizer: Bool { true }

    override func attachSynchronizer(_ sink: SynchronizerSink?) {
        lock.withLock { synchronizer = sink }
    }

    private func receive(_ frame: StreamFrame) {
        lock.lock()
        if let sink = synchronizer {
            // Under a synchronizer: every frame goes to it (it drops late ones for its delegate), none to our delegate.
            guard let connection = connections.first, connection.isEnabled, let pixels = frame.buffer(_pixelFormat) else {
                lock.unlock()
                sink(frame.time, nil)
                return
            }
            delivered += 1
            lock.unlock()
            let buffer = sampleBuffer(pixels, frame: frame, mirroredAs: connection)
            sink(frame.time, AVCaptureSynchronizedSampleBufferData(sampleBuffer: buffer, timestamp: buffer.presentationTimeStamp,
                                                                   droppedReason: .none))
            return
        }
        // A disabled connection (`isEnabled` false) carries no data to its output, as on iOS.
        guard let delegate = _delegate, let queue = _queue, let connection = connections.first, connection.isEnabled,
              let pixels = frame.buffer(_pixelFormat) else { lock.unlock(); return }
        let drop = inFlight >= (_discardsLate ? 1 : Self.queuedFrameLimit)
        if drop { dropped += 1 } else { inFlight += 1; delivered += 1 }
        lock.unlock()
        let buffer = sampleBuffer(pixels, frame: frame, mirroredAs: drop ? nil : connection)
        let target = CallbackTarget(delegate)
        queue.async { [weak self] in
            guard let self else { return }
            if drop {
                target.value.captureOutput(self, didDrop: buffer, from: connection)
            } else {
                target.value.captureOutput(self, didOutput: buffer, from: connection)
                self.lock.withLock { self.inFlight -= 1 }
            }
        }
    }

    /// A frame as delivered: stamped with its exposure start and duration on the session clock, and mirrored when
    /// `connection` mirrors (the front camera's, by default) about the vertical axis of the picture as the connection's
    /// rotation shows it (the buffers are not turned; a dropped frame's is not mirrored either).
    private func sampleBuffer(_ pixels: CVPixelBuffer, frame: StreamFrame, mirroredAs connection: AVCaptureConnection?) -> CMSampleBuffer {
        var pixels = pixels
        if let connection, connection.isVideoMirrored,
           let mirrored = pixels.mirroredAsShown(turnedBy: Int(connection.videoRotationAngle)) {
            pixels = mirrored
        }
        return CMSampleBuffer(imageBuffer: pixels,
                              presentationTimeStamp: CMTime(seconds: frame.time, preferredTimescale: 1_000_000_000),
                              duration: CMTime(seconds: frame.duration, preferredTimescale: 1_000_000_000))
    }
}
