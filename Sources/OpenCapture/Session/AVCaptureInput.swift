import Foundation

/// Abstract source of media for a session (Apple's `AVCaptureInput`).
///
/// `@unchecked Sendable`: no stored properties.
public class AVCaptureInput: NSObject, @unchecked Sendable {
    override init() { super.init() }
}
