import Foundation

/// What an `AVCapturePhotoOutputReadinessCoordinator` tells about readiness changes (Apple's protocol, iOS 17).
/// The method is optional, as Apple's: a default implementation does nothing.
public protocol AVCapturePhotoOutputReadinessCoordinatorDelegate: NSObjectProtocol {
    /// The output's readiness changed; called on the main queue.
    func readinessCoordinator(_ coordinator: AVCapturePhotoOutputReadinessCoordinator,
                              captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness)
}

extension AVCapturePhotoOutputReadinessCoordinatorDelegate {
    public func readinessCoordinator(_ coordinator: AVCapturePhotoOutputReadinessCoordinator,
                                     captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness) {}
}
