import Foundation

/// Delivers the data of several data outputs for the same moment in one callback (Apple's
/// `AVCaptureDataOutputSynchronizer`): a video frame with the depth map measured with it, for example. The first
/// output is the primary one; a collection is delivered for each stream frame once every output has said what it has
/// for that frame (a depth output between maps has nothing, and is then absent from the collection), in time order.
///
/// While the synchronizer has a delegate, its outputs' own delegates are not called (as Apple's, which overrides
/// them); `setDelegate(nil, queue: nil)`, or letting the synchronizer go, gives the outputs back to their delegates. Video and depth data outputs can be
/// synchronized; other outputs are reported to `DeviceDiagnostics` and left out (Apple raises). When the delegate has
/// fallen behind by the video output's buffer pool (4 collections), the next one's video frame is marked dropped
/// (`.lateData`) if its output discards late frames, as the output's own `didDrop` would be called.
///
/// `@unchecked Sendable`: `lock` guards the delegate, queue, the moments being gathered and the count in flight.
public final class AVCaptureDataOutputSynchronizer: NSObject, @unchecked Sendable {
    /// The synchronized outputs, the primary first.
    public let dataOutputs: [AVCaptureOutput]
    private let lock = NSLock()
    private weak var _delegate: AVCaptureDataOutputSynchronizerDelegate?
    private var _queue: DispatchQueue?
    /// What each output has said for each stream frame's time (nil data: nothing at that time).
    private var moments: [Double: [Int: AVCaptureSynchronizedData?]] = [:]
    /// Collections handed to the delegate's queue and not yet returned.
    private var inFlight = 0
    /// How many of the outputs speak for each frame (those a synchronizer can take).
    private let speakers: Int
    /// Frame time up to which moments have been delivered: what an output says later about them is too late.
    private var deliveredThrough = -Double.infinity
    /// How far behind the newest frame a moment is held for an output that has not spoken (seconds): a depth map is
    /// measured in a fraction of that, and one that stopped delivering must not hold the rest for ever.
    static let longestWait = 1.0

    /// A synchronizer for `dataOutputs`, the first of them the primary output.
    public init(dataOutputs: [AVCaptureOutput]) {
        self.dataOutputs = dataOutputs
        speakers = dataOutputs.filter(\.acceptsSynchronizer).count
        super.init()
    }

    /// A synchronizer let go gives its outputs back to their own delegates.
    deinit {
        for output in dataOutputs { output.attachSynchronizer(nil) }
    }

    public var delegate: AVCaptureDataOutputSynchronizerDelegate? { lock.withLock { _delegate } }
    public var delegateCallbackQueue: DispatchQueue? { lock.withLock { _queue } }

    /// Sets the delegate (held weakly) and the serial queue its callbacks run on, and takes the outputs' deliveries;
    /// nil for both gives them back. A delegate without a queue is reported and ignored (Apple raises).
    public func setDelegate(_ delegate: AVCaptureDataOutputSynchronizerDelegate?, queue delegateCallbackQueue: DispatchQueue?) {
        if delegate != nil, delegateCallbackQueue == nil {
            DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("a synchronizer delegate without a queue"))
            return
        }
        lock.withLock {
            _delegate = delegate
            _queue = delegateCallbackQueue
            moments = [:]
            deliveredThrough = -.infinity
        }
        for (index, output) in dataOutputs.enumerated() {
            var sink: AVCaptureOutput.SynchronizerSink?
            if delegate != nil {
                sink = { @Sendable [weak self] time, data in self?.receive(index, time: time, data: data) }
            }
            output.attachSynchronizer(sink)
            if !output.acceptsSynchronizer, delegate != nil {
                DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported(
                    "\(type(of: output)) in a data output synchronizer (only video and depth data outputs)"))
            }
        }
    }

    /// What output `index` has for the frame at `time`; delivers every moment now complete, oldest first. All under
    /// the lock, the hand-over to the delegate's queue included, so moments completed on different threads (the stream's
    /// for frames, the depth worker's for maps) still reach the delegate in time order.
    private func receive(_ index: Int, time: Double, data: AVCaptureSynchronizedData?) {
        lock.lock(); defer { lock.unlock() }
        guard time > deliveredThrough else { return }
        moments[time, default: [:]][index] = .some(data)
        let newest = moments.keys.max() ?? time
        for key in moments.keys.sorted() {
            guard let moment = moments[key] else { continue }
            guard moment.count >= speakers || newest - key > Self.longestWait else { break }
            moments[key] = nil
            deliveredThrough = key
            if let delegate = _delegate, let queue = _queue { deliver(moment, to: delegate, on: queue) }
        }
    }

    /// Hands one moment's collection to the delegate's queue; called with the lock held.
    private func deliver(_ moment: [Int: AVCaptureSynchronizedData?], to delegate: AVCaptureDataOutputSynchronizerDelegate,
                         on queue: DispatchQueue) {
        let entries = dataOutputs.indices.compactMap { i -> (output: AVCaptureOutput, data: AVCaptureSynchronizedData)? in
            guard let data = moment[i] ?? nil else { return nil }
            return (dataOutputs[i], data)
        }
        guard !entries.isEmpty else { return }
        // Moments held for a map are handed over together; only a delegate that has fallen behind by the video output's
        // buffer pool sees frames dropped.
        let late = inFlight >= AVCaptureVideoDataOutput.queuedFrameLimit
        inFlight += 1
        let collection = AVCaptureSynchronizedDataCollection(entries.map { entry in
            guard late, let frame = entry.data as? AVCaptureSynchronizedSampleBufferData,
                  (entry.output as? AVCaptureVideoDataOutput)?.alwaysDiscardsLateVideoFrames == true else { return entry }
            return (entry.output, AVCaptureSynchronizedSampleBufferData(sampleBuffer: frame.sampleBuffer, timestamp: frame.timestamp,
                                                                        droppedReason: .lateData))
        })
        let target = CallbackTarget(delegate)
        queue.async { [weak self] in
            guard let self else { return }
            target.value.dataOutputSynchronizer(self, didOutput: collection)
            self.lock.withLock { self.inFlight -= 1 }
        }
    }
}
