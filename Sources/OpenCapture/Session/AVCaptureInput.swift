import Foundation

/// Abstract source of media for a session (Apple's `AVCaptureInput`).
public class AVCaptureInput: NSObject, @unchecked Sendable {
    override init() { super.init() }
}
