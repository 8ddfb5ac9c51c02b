import CaptureCore
import CaptureEngine
import Foundation

/// Abstract destination of a session's media (Apple's `AVCaptureOutput`).
///
/// `@unchecked Sendable`: `stateLock` guards the session and connections, its only mutable fields.
public class AVCaptureOutput: NSObject, @unchecked Sendable {
    private let stateLock = NSLock()
    private weak var _session: AVCaptureSession?
    private var _connections: [AVCaptureConnection] = []

    override init() { super.init() }

    /// The session this output belongs to (OpenCapture: internal bookkeeping made visible read-only).
    var session: AVCaptureSession? {
        stateLock.lock(); defer { stateLock.unlock() }
        return _session
    }

    /// The connections feeding this output.
    public var connections: [AVCaptureConnection] {
        stateLock.lock(); defer { stateLock.unlock() }
        return _connections
    }

    /// The first connection carrying `mediaType`, or nil.
    public func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { $0.mediaType == mediaType }
    }

    func attach(to session: AVCaptureSession?, connection: AVCaptureConnection?) {
        stateLock.lock()
        _session = session
        _connections = connection.map { [$0] } ?? []
        stateLock.unlock()
        didChangeConfiguration()
    }

    /// Whether a data output's delegate and callback queue may be set together: a delegate without a queue is
    /// reported to `DeviceDiagnostics` as `what` and refused (Apple raises).
    static func acceptsDelegate(_ delegate: AnyObject?, queue: DispatchQueue?, what: String) -> Bool {
        guard delegate != nil && queue == nil else { return true }
        DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("\(what) without a queue"))
        return false
    }

    /// Called when the session, input or format changes.
    func didChangeConfiguration() {}

    /// Whether the session must run the camera's frame stream while this output is in it.
    var needsFrameStream: Bool { false }

    /// A data output synchronizer's hook: while set, the output hands what it has for each stream frame — its data
    /// (or a drop), or nil for none at that time — to `sink` (on any thread, in time order for each output) instead of
    /// calling its own delegate. Only outputs that `acceptsSynchronizer` take it.
    func attachSynchronizer(_ sink: SynchronizerSink?) {}
    /// Whether a synchronizer can take this output (only data outputs can; it then waits for what the output has for
    /// each frame).
    var acceptsSynchronizer: Bool { false }
    typealias SynchronizerSink = @Sendable (_ frameTime: Double, _ data: AVCaptureSynchronizedData?) -> Void
    /// Whether the stream must measure depth for this output (the dual camera then streams from its telephoto lens).
    var streamNeedsDepth: Bool { false }
    /// The media type of the connection the session makes for this output.
    var connectionMediaType: AVMediaType { .video }
    /// Pixel formats this output wants stream frames in.
    var streamPixelFormats: Set<FourCC> { [] }
    /// The session's running stream (nil when it stops or is replaced).
    func attachStream(_ stream: FrameStream?) {}
}
