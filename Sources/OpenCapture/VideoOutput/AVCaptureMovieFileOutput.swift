import Foundation
import MediaFormats

/// Records the session's frames to a QuickTime movie (Apple's `AVCaptureMovieFileOutput`): H.264
/// (the default) or HEVC at the stream's size and frame rate, with the device's make and model in
/// the movie's metadata, and an AAC track of what the microphone hears when the session has the
/// microphone as an input.
///
/// A session with a movie file output cannot take Live Photos (`isLivePhotoCaptureSupported` is false).
///
/// `@unchecked Sendable`: the codec choice is guarded by the file output's `lock`.
public final class AVCaptureMovieFileOutput: AVCaptureFileOutput, @unchecked Sendable {
    private var _codec: AVVideoCodecType = .h264

    public override init() { super.init() }

    /// Codecs recordings can use: H.264 first (the default), then HEVC.
    public var availableVideoCodecTypes: [AVVideoCodecType] { [.h264, .hevc] }

    /// The settings for a connection: `[AVVideoCodecKey: codec]`.
    public func outputSettings(for connection: AVCaptureConnection) -> [String: Any] {
        [AVVideoCodecKey: lock.withLock { _codec }]
    }

    /// Chooses the codec (`AVVideoCodecKey`) for later recordings; other keys are ignored, and a codec not in
    /// `availableVideoCodecTypes` is reported to `DeviceDiagnostics` and ignored (Apple raises).
    public func setOutputSettings(_ outputSettings: [String: Any]?, for connection: AVCaptureConnection) {
        let value = outputSettings?[AVVideoCodecKey]
        let codec = (value as? AVVideoCodecType) ?? (value as? String).map(AVVideoCodecType.init(rawValue:)) ?? .h264
        guard availableVideoCodecTypes.contains(codec) else {
            DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("movie codec \(codec.rawValue)"))
            return
        }
        lock.withLock { _codec = codec }
    }

    override var movieCodec: MovieCodec { lock.withLock { _codec } == .hevc ? .hevc : .h264 }
}
