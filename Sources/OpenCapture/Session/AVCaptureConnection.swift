import CaptureCore
import Foundation

/// Links an input to an output (Apple's `AVCaptureConnection`). Its rotation and mirroring are
/// recorded in photos as the EXIF orientation, as on iOS (pixels are never rotated).
///
/// `@unchecked Sendable`: `lock` guards rotation, mirroring, enabled and the preferred stabilisation;
/// `automaticallyAdjustsVideoMirroring` is `@Locked`; `input` is a weak reference set once at creation.
public final class AVCaptureConnection: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var _rotation: CGFloat = 0
    private var _mirrored = false
    private var _enabled = true
    /// `preferredVideoStabilizationMode` (read and written through `withConnectionLock`).
    var preferredStabilization = AVCaptureVideoStabilizationMode.off

    let mediaType: AVMediaType
    weak var input: AVCaptureDeviceInput?

    init(input: AVCaptureDeviceInput, mediaType: AVMediaType = .video) {
        self.input = input
        self.mediaType = mediaType
        _mirrored = input.device.position == .front
        super.init()
    }

    /// Whether data flows through the connection (default true). While false its output receives nothing: a photo
    /// output refuses requests (`PhotoSettingsError.noActiveVideoConnection`), video and depth data outputs deliver
    /// no frames or maps (none dropped either), and a movie file output does not start recording (`.noDataCaptured`
    /// at once; Apple raises "No active/enabled connections") and leaves out the frames of a recording in progress.
    public var isEnabled: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _enabled }
        set { lock.lock(); _enabled = newValue; lock.unlock() }
    }

    /// Runs `body` under the connection's lock (for the state extensions keep here).
    func withConnectionLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }

    /// Whether the connection is enabled and its input has a device.
    public var isActive: Bool { isEnabled && input != nil }

    /// Clockwise rotation in degrees (0, 90, 180, 270) that turns the recorded frame upright. Default 0 (landscape):
    /// the simulated phone is held in landscape — its room is upright in the sensor's frame — where an iPhone's photo
    /// connection starts at 90 (portrait, the phone held upright). Set it to the angle the device is held at, as
    /// Apple's rotation coordinator would; a photo records it as its EXIF orientation (pixels are not rotated).
    public var videoRotationAngle: CGFloat {
        get { lock.lock(); defer { lock.unlock() }; return _rotation }
        set {
            guard isVideoRotationAngleSupported(newValue) else {
                DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported("videoRotationAngle \(newValue)"))
                return
            }
            lock.lock(); _rotation = newValue; lock.unlock()
        }
    }

    public func isVideoRotationAngleSupported(_ videoRotationAngle: CGFloat) -> Bool {
        [0, 90, 180, 270].contains(videoRotationAngle)
    }

    public var isVideoOrientationSupported: Bool { true }

    /// Deprecated orientation, kept in step with `videoRotationAngle`.
    public var videoOrientation: AVCaptureVideoOrientation {
        get {
            switch videoRotationAngle {
            case 0: return .landscapeRight
            case 180: return .landscapeLeft
            case 270: return .portraitUpsideDown
            default: return .portrait
            }
        }
        set { videoRotationAngle = newValue.rotationAngle }
    }

    public var isVideoMirroringSupported: Bool { true }
    @Locked public var automaticallyAdjustsVideoMirroring: Bool = true

    /// Whether frames are mirrored (the front camera's are, by default). Setting it while
    /// `automaticallyAdjustsVideoMirroring` is true is reported to `DeviceDiagnostics` and ignored (Apple raises).
    public var isVideoMirrored: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _mirrored }
        set {
            guard !automaticallyAdjustsVideoMirroring else {
                DeviceDiagnostics.report(AVCaptureDevice.ConfigurationError.unsupported(
                    "setting isVideoMirrored while automaticallyAdjustsVideoMirroring is true (set that to false first)"))
                return
            }
            lock.lock(); _mirrored = newValue; lock.unlock()
        }
    }

    /// EXIF orientation (1…8) of a sensor image shown with this rotation and mirroring.
    var exifOrientation: Int {
        let rotation = Int(videoRotationAngle) % 360
        switch (rotation, isVideoMirrored) {
        case (0, false): return 1
        case (90, false): return 6
        case (180, false): return 3
        case (270, false): return 8
        case (0, true): return 2
        case (90, true): return 5
        case (180, true): return 4
        default: return 7
        }
    }
}
