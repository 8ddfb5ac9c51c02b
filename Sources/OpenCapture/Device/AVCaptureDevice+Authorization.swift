import Foundation

extension AVCaptureDevice {
    /// Access is always granted for the simulated cameras and microphone; other media are `.denied`.
    public class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        mediaType == .video || mediaType == .audio ? .authorized : .denied
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
