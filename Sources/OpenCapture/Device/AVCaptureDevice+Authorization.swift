import Foundation

extension AVCaptureDevice {
    /// Camera access is always granted for the simulated video devices; other media are `.denied`
    /// until OpenCapture simulates them.
    public class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        mediaType == .video ? .authorized : .denied
    }

    /// Answers at once on a global queue with the same result as `authorizationStatus(for:)`.
    public class func requestAccess(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        let granted = authorizationStatus(for: mediaType) == .authorized
        DispatchQueue.global().async { handler(granted) }
    }

    /// `requestAccess(for:)` as an async call, as Swift imports Apple's method.
    public class func requestAccess(for mediaType: AVMediaType) async -> Bool {
        authorizationStatus(for: mediaType) == .authorized
    }
}
