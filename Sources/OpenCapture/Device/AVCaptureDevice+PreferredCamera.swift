import CaptureCore
import Foundation

/// The user's and the system's preferred camera (Apple's `userPreferredCamera` / `systemPreferredCamera`, iOS 17).
/// Difference: the user's choice lasts for the process (Apple keeps it across launches), and neither class property
/// can be key-value observed (swift-corelibs-foundation has no KVO): read `systemPreferredCamera` when choosing.
extension AVCaptureDevice {
    private static let userPreference = Locked<AVCaptureDevice?>(nil)

    /// The camera the user last chose in this app (nil until one is set). Apps set it whenever the user picks a
    /// camera; setting a device that is not a camera (the microphone) is reported to `DeviceDiagnostics` and ignored,
    /// and setting nil changes nothing, as Apple documents.
    public class var userPreferredCamera: AVCaptureDevice? {
        get { userPreference.withLock { $0 } }
        set {
            guard let newValue else { return }
            guard newValue.hasMediaType(.video) else {
                DeviceDiagnostics.report(ConfigurationError.unsupported("userPreferredCamera \(newValue.localizedName)"))
                return
            }
            userPreference.withLock { $0 = newValue }
        }
    }

    /// The camera to use now: `userPreferredCamera` when set (every simulated camera is always available), else the
    /// system's choice for the back of the phone, the dual camera (its virtual multi-lens device, as iPhones prefer).
    public class var systemPreferredCamera: AVCaptureDevice? {
        userPreferredCamera ?? AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back)
            ?? AVCaptureDevice.default(for: .video)
    }
}
